import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lookup, type TextTree } from '../../src/core/i18n/translate';
import { ruleName, toFieldErrors } from '../../src/core/validation/field-errors';
import { createAjv } from '../../src/server/definitions/ajv';
import { REPORTING_KEYWORDS, rulesOfSchema } from '../../src/server/definitions/check-rule-texts';
import { PROJECT_ROOT } from '../../src/server/config';

const texts = Object.fromEntries(
  (['en', 'fr'] as const).map((language) => [
    language,
    JSON.parse(
      fs.readFileSync(path.join(PROJECT_ROOT, 'translations', `${language}.json`), 'utf8'),
    ) as TextTree,
  ]),
);

/** Ajv's errors for `data` under `schema`, as the server and the browser get them. */
function errorsOf(schema: object, data: unknown) {
  const validate = createAjv().compile(schema);
  validate(data);
  return validate.errors ?? [];
}

describe('the texts of the rules a schema can fail by', () => {
  it('has a text in English and French for every keyword that fails on its own', () => {
    for (const keyword of [...REPORTING_KEYWORDS, 'false schema'])
      for (const language of ['en', 'fr'])
        expect(
          // A format's rule is named after the format (the checker asks for each one used).
          lookup(texts[language]!, `validation.${ruleName(keyword, { format: 'date' })}`),
          `${language} ${keyword}`,
        ).toBeTypeOf('string');
  });

  it('shows the error of a then, not the if Ajv reports beside it', () => {
    const schema = {
      type: 'object',
      properties: { answer: { type: 'boolean' }, explanation: { type: 'string' } },
      if: { properties: { answer: { const: true } }, required: ['answer'] },
      then: { required: ['explanation'] },
    };
    const errors = errorsOf(schema, { answer: true });
    expect(errors.map((e) => e.keyword)).toEqual(['required', 'if']);
    for (const language of ['en', 'fr'] as const) {
      const fields = toFieldErrors(errors, texts, language);
      expect(fields).toEqual([
        {
          path: '/explanation',
          rule: 'required',
          message: lookup(texts[language]!, 'validation.required'),
        },
      ]);
    }
  });

  it('names a wrong type in words of the language, never as JSON Schema spells it', () => {
    const schema = {
      type: 'object',
      properties: { owner: { type: 'string' }, count: { type: ['integer', 'null'] } },
    };
    const errors = errorsOf(schema, { owner: 42, count: 'many' });
    expect(toFieldErrors(errors, texts, 'fr').map((f) => f.message)).toEqual([
      "Cette valeur n'a pas le bon type (attendu : un texte)",
      "Cette valeur n'a pas le bon type (attendu : un nombre entier ou rien)",
    ]);
    expect(toFieldErrors(errors, texts, 'en').map((f) => f.message)).toEqual([
      'This value has the wrong type (expected a text)',
      'This value has the wrong type (expected a whole number or nothing)',
    ]);
  });

  it('shows an anyOf only when no branch says more, a not and a false schema in words', () => {
    const schema = {
      type: 'object',
      properties: {
        code: { anyOf: [{ type: 'string', maxLength: 2 }, { type: 'integer' }] },
        choice: { type: 'number', oneOf: [{ minimum: 1 }, { maximum: 5 }] },
        other: { not: { const: 'x' } },
        never: false,
      },
    };
    const fields = toFieldErrors(
      errorsOf(schema, { code: 'abc', choice: 3, other: 'x', never: 1 }),
      texts,
      'fr',
    );
    expect(fields.map((f) => [f.path, f.rule])).toEqual([
      ['/code', 'maxLength'],
      ['/code', 'type'],
      ['/choice', 'oneOf'],
      ['/other', 'not'],
      ['/never', 'falseSchema'],
    ]);
    for (const field of fields) expect(field.message).not.toMatch(/^validation\./);
  });

  it('lists each rule of a schema at its keyword, nested ones included', () => {
    const rules = rulesOfSchema(
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          list: { type: 'array', uniqueItems: true, items: { format: 'uuid' } },
          mobile: { type: 'string', pattern: '^\\+?[0-9 ()-]{6,20}$' },
          open: { type: 'object', additionalProperties: true },
        },
        if: { required: ['list'] },
        then: { required: ['mobile'] },
      },
      '/schema',
    );
    expect(rules).toEqual([
      { pointer: '/schema/type', rule: 'type' },
      { pointer: '/schema/additionalProperties', rule: 'additionalProperties' },
      { pointer: '/schema/properties/list/type', rule: 'type' },
      { pointer: '/schema/properties/list/uniqueItems', rule: 'uniqueItems' },
      { pointer: '/schema/properties/list/items/format', rule: 'format_uuid' },
      { pointer: '/schema/properties/mobile/type', rule: 'type' },
      { pointer: '/schema/properties/mobile/pattern', rule: 'mobileNumber' },
      { pointer: '/schema/properties/open/type', rule: 'type' },
      { pointer: '/schema/if/required', rule: 'required' },
      { pointer: '/schema/then/required', rule: 'required' },
    ]);
  });
});
