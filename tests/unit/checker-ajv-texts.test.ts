import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import { PROJECT_ROOT } from '../../src/server/config';
import { createAjv } from '../../src/server/definitions/ajv';
import { readDefinitionFiles } from '../../src/server/definitions/files';
import {
  ajvText,
  checkDefinitions,
  DefinitionsError,
  nameText,
} from '../../src/server/definitions/load';
import { problemOf, type ProblemText } from '../../src/server/definitions/problems';
import { worded } from '../support/checker-texts';

/**
 * The checker says what Ajv finds wrong by keyword, with the values of the error's params, so
 * an analyst reads it in French too; in English it reads exactly as Ajv's own message.
 */
const ajv = createAjv({ messages: true, strict: false });

const english = (text: ProblemText) => worded([problemOf('f.json', '', text)])[0]!.message;
const french = (text: ProblemText) => worded([problemOf('f.json', '', text)], 'fr')[0]!.message;

function errorsOf(schema: object, data: unknown): ErrorObject[] {
  const validate = ajv.compile(schema);
  expect(validate(data)).toBe(false);
  return validate.errors ?? [];
}

const cases: Array<[string, object, unknown]> = [
  ['required', { type: 'object', required: ['a'] }, {}],
  ['additionalProperties', { type: 'object', additionalProperties: false }, { a: 1 }],
  ['type', { type: 'string' }, 1],
  ['type (several)', { type: ['string', 'null'] }, 1],
  ['enum', { enum: ['a', 'b'] }, 'c'],
  ['const', { const: { a: 1 } }, 'c'],
  ['pattern', { type: 'string', pattern: '^[A-Z]+$' }, 'a'],
  ['format', { type: 'string', format: 'date' }, 'x'],
  ['minItems', { type: 'array', minItems: 2 }, [1]],
  ['maxItems', { type: 'array', maxItems: 1 }, [1, 2]],
  ['minLength', { type: 'string', minLength: 2 }, 'a'],
  ['maxLength', { type: 'string', maxLength: 1 }, 'ab'],
  ['minProperties', { type: 'object', minProperties: 1 }, {}],
  ['maxProperties', { type: 'object', maxProperties: 0 }, { a: 1 }],
  ['minimum', { type: 'number', minimum: 2 }, 1],
  ['maximum', { type: 'number', maximum: 2 }, 3],
  ['exclusiveMinimum', { type: 'number', exclusiveMinimum: 2 }, 2],
  ['exclusiveMaximum', { type: 'number', exclusiveMaximum: 2 }, 2],
  ['multipleOf', { type: 'number', multipleOf: 5 }, 3],
  ['uniqueItems', { type: 'array', uniqueItems: true }, [1, 2, 1]],
  ['oneOf', { oneOf: [{ type: 'string' }, { type: 'number' }] }, true],
  ['anyOf', { anyOf: [{ type: 'string' }, { type: 'number' }] }, true],
  ['not', { not: { type: 'string' } }, 'a'],
  ['if', { if: { const: 1 }, then: { const: 2 } }, 1],
  ['false schema', { properties: { a: false } }, { a: 1 }],
  ['dependencies (one)', { dependencies: { a: ['b'] } }, { a: 1 }],
  ['dependencies', { dependencies: { a: ['b', 'c'] } }, { a: 1 }],
  ['contains (Ajv’s message)', { type: 'array', contains: { type: 'string' } }, [1]],
];

describe('Ajv errors said by keyword', () => {
  it.each(cases)('%s reads in English as Ajv says it', (_, schema, data) => {
    const errors = errorsOf(schema, data);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(english(ajvText(error))).toBe(error.message);
  });

  it('names no key of its own for a keyword it does not know, saying Ajv’s message', () => {
    const errors = errorsOf({ type: 'array', contains: { type: 'string' } }, [1]);
    const contains = errors.find((error) => error.keyword === 'contains');
    expect(ajvText(contains!)).toEqual({
      key: 'schemaInvalid',
      params: { reason: 'must contain at least 1 valid item(s)' },
    });
  });

  it('says a property name’s problems after the name, in English and French', () => {
    const errors = errorsOf(
      { type: 'object', propertyNames: { pattern: '^[A-Z]+$', maxLength: 3 } },
      { 'SUB-MITTED': 1 },
    );
    const inner = errors.filter((error) => error.keyword !== 'propertyNames');
    expect(inner.map((error) => english(nameText('SUB-MITTED', error)))).toEqual([
      'the name "SUB-MITTED" must NOT have more than 3 characters',
      'the name "SUB-MITTED" must match pattern "^[A-Z]+$"',
    ]);
    expect(inner.map((error) => french(nameText('SUB-MITTED', error)))).toEqual([
      'le nom « SUB-MITTED » ne doit pas avoir plus de 3 caractères',
      'le nom « SUB-MITTED » doit respecter le motif « ^[A-Z]+$ »',
    ]);
  });

  it('reads in French with the values of the error', () => {
    const [required] = errorsOf({ type: 'object', required: ['id'] }, {});
    const [limit] = errorsOf({ type: 'number', minimum: 2 }, 1);
    const [kinds] = errorsOf({ type: ['string', 'null'] }, 1);
    expect([required, limit, kinds].map((error) => french(ajvText(error!)))).toEqual([
      'doit avoir la propriété requise « id »',
      'doit être supérieur ou égal à 2',
      'doit être de type « string,null »',
    ]);
  });

  it('says what the meta-schema refuses in a workflow in French, at the same places', async () => {
    const files = await readDefinitionFiles(PROJECT_ROOT);
    const file = 'workflows/sponsor-application.json';
    const workflow = JSON.parse(files.get(file)!) as {
      machine: { states: Record<string, unknown> };
      timelien?: boolean;
    };
    const states = workflow.machine.states;
    states['SUB-MITTED'] = states.SUBMITTED;
    delete states.SUBMITTED;
    workflow.timelien = true;
    files.set(file, JSON.stringify(workflow));
    const error = await checkDefinitions(files, serverModules).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(DefinitionsError);
    const said = (error as DefinitionsError).said!.filter((problem) => problem.file === file);
    expect(worded(said, 'fr').map(({ pointer, message }) => `${pointer}: ${message}`)).toEqual([
      '/timelien: propriété inconnue « timelien » : retirez-la, ou corrigez son nom',
      '/machine/states/SUB-MITTED: le nom « SUB-MITTED » doit respecter le motif « ^[A-Z][A-Z ]*$ »',
    ]);
  });
});
