import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogEntrySchema } from '../../src/core/definitions/catalog-entry';
import type {
  CatalogDefinition,
  EntityDefinition,
  JsonSchema,
  WorkflowDefinition,
} from '../../src/core/definitions/types';
import {
  copiedTranslations,
  inLanguage,
  localizedText,
  translationOf,
} from '../../src/core/i18n/localized';
import { createAjv } from '../../src/server/definitions/ajv';
import type { DefinitionProblem } from '../../src/server/definitions/load';
import { copyDefinitions, readProjectJson, refusalOf } from '../support/definitions-dir';

/**
 * Reference data in the reader's language (docs/catalogues.md, "Texts in every language"): what
 * a translatable text reads in each language, the entry schema that checks its translations
 * with the field's own limits, and the checker refusing each declaration that cannot work.
 */

const entry = {
  code: 'WRK',
  name: 'Work visa',
  binder: 'VISA',
  i18n: { fr: { name: 'Visa de travail' } },
};

describe('a translatable text', () => {
  it('reads in the reader’s language, in English where it has none', () => {
    expect(localizedText(entry, 'name', 'fr')).toBe('Visa de travail');
    expect(localizedText(entry, 'name', 'en')).toBe('Work visa');
    expect(localizedText({ ...entry, i18n: { fr: { name: '' } } }, 'name', 'fr')).toBe('Work visa');
    expect(localizedText({ code: 'VIS', name: 'Visitor visa' }, 'name', 'fr')).toBe('Visitor visa');
    expect(translationOf(entry, 'name', 'fr')).toBe('Visa de travail');
    expect(translationOf(entry, 'binder', 'fr')).toBeUndefined();
  });

  it('is copied with its translations under the copy’s own field name', () => {
    const question = {
      code: 'CRIM',
      description: 'Have you ever been convicted?',
      i18n: { fr: { description: 'Avez-vous déjà été condamné ?' } },
    };
    expect(
      copiedTranslations(question, [
        ['code', 'code'],
        ['question', 'description'],
      ]),
    ).toEqual({ fr: { question: 'Avez-vous déjà été condamné ?' } });
    expect(
      copiedTranslations({ code: 'X', description: 'No French' }, [['q', 'description']]),
    ).toBe(undefined);
  });

  it('is handed to a reader of one language as that language’s text, without the others', () => {
    expect(inLanguage(entry, ['name'], 'fr')).toEqual({
      code: 'WRK',
      name: 'Visa de travail',
      binder: 'VISA',
    });
  });
});

describe('the entry schema of a catalogue with translatable fields', () => {
  it('takes each other language’s text with the field’s own limits, and nothing else', async () => {
    const catalog = await readProjectJson<CatalogDefinition>('catalogs/document.json');
    const { $id: _id, ...schema } = catalogEntrySchema(catalog);
    const validate = createAjv().compile(schema);
    const valid = { ...entry, startTime: '2024-01-01T00:00:00Z' };
    expect(validate(valid)).toBe(true);
    // The name's own limit (35) holds for its French text too.
    expect(validate({ ...valid, i18n: { fr: { name: 'x'.repeat(36) } } })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe('/i18n/fr/name');
    // Only the translatable fields, only the other languages.
    expect(validate({ ...valid, i18n: { fr: { binder: 'Classeur' } } })).toBe(false);
    expect(validate({ ...valid, i18n: { de: { name: 'Arbeitsvisum' } } })).toBe(false);
    expect(validate({ ...valid, i18n: { en: { name: 'Work visa' } } })).toBe(false);
  });

  it('has no translations where the catalogue declares no translatable field', async () => {
    const catalog = await readProjectJson<CatalogDefinition>('catalogs/user-types-id.json');
    expect(catalog.translatable).toBeUndefined();
    const properties = catalogEntrySchema(catalog).properties as Record<string, JsonSchema>;
    expect(properties.i18n).toBeUndefined();
  });
});

describe('the checker: translatable fields and amounts', () => {
  let cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.map((remove) => remove()));
    cleanup = [];
  });

  async function problemsWith<T>(
    changes: Record<string, (definition: T) => void>,
  ): Promise<DefinitionProblem[]> {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    for (const [file, change] of Object.entries(changes)) {
      const absolute = path.join(copy.dir, file);
      const definition = JSON.parse(await fs.readFile(absolute, 'utf8')) as T;
      change(definition);
      await fs.writeFile(absolute, JSON.stringify(definition, null, 2));
    }
    return refusalOf(copy.dir);
  }

  it('refuses a translatable field that is no text the entry owns, and money that is no number', async () => {
    const problems = await problemsWith<CatalogDefinition>({
      'catalogs/country.json': (catalog) => {
        catalog.translatable = ['name', 'code', 'numericCode', 'capital'];
        catalog.money = { name: 'NZD' };
      },
      'catalogs/question.json': (catalog) => {
        catalog.translatable = ['description', 'type'];
      },
      'catalogs/document.json': (catalog) => {
        catalog.translatable = ['name', 'binder'];
      },
      'catalogs/binder.json': (catalog) => {
        catalog.schema.properties = {
          ...(catalog.schema.properties as Record<string, JsonSchema>),
          i18n: { type: 'string' },
        };
        catalog.labels.en.fields.i18n = 'Translations';
        catalog.labels.fr.fields.i18n = 'Traductions';
      },
      'catalogs/period.json': (catalog) => {
        const properties = catalog.schema.properties as Record<string, JsonSchema>;
        properties.name = { ...properties.name, readOnly: true };
      },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: 'catalogs/country.json',
          pointer: '/translatable/1',
          message: 'field "code" is a key: a code, the same in every language',
        },
        {
          file: 'catalogs/country.json',
          pointer: '/translatable/2',
          message: 'field "numericCode" is not a text: only a text is given in every language',
        },
        {
          file: 'catalogs/country.json',
          pointer: '/translatable/3',
          message: '"capital" is not a field of the schema',
        },
        {
          file: 'catalogs/country.json',
          pointer: '/money/name',
          message: 'field "name" is not a number: only a number is an amount of money',
        },
        {
          file: 'catalogs/question.json',
          pointer: '/translatable/1',
          message: 'field "type" is an enumeration: its values are codes',
        },
        {
          file: 'catalogs/document.json',
          pointer: '/translatable/1',
          message: 'field "binder" names another entry by its code',
        },
        {
          file: 'catalogs/binder.json',
          pointer: '/schema/properties/i18n',
          message: '"i18n" is reserved for the entries\' translations',
        },
        {
          file: 'catalogs/period.json',
          pointer: '/schema/properties/name',
          message: 'field "name" is written only by the system (readOnly) and cannot be required',
        },
        {
          file: 'catalogs/period.json',
          pointer: '/translatable/0',
          message: 'field "name" is written only by the system',
        },
      ]),
    );
  });

  it('refuses a list or fee lines copying a translatable text without declaring its translations', async () => {
    const problems = await problemsWith<EntityDefinition & WorkflowDefinition>({
      'schemas/visa-application.schema.json': (entity) => {
        const properties = entity.schema.properties as Record<string, JsonSchema>;
        const items = properties.characterQuestions!.items as JsonSchema;
        delete (items.properties as Record<string, JsonSchema>).i18n;
        const fees = properties.fees!.properties as Record<string, JsonSchema>;
        const lines = fees.lines!.items as JsonSchema;
        delete (lines.properties as Record<string, JsonSchema>).i18n;
        const ui = entity.uiSchema as Record<string, Record<string, Record<string, unknown>>>;
        delete ui.characterQuestions!.items!.i18n;
        delete (ui.fees!.lines as Record<string, Record<string, unknown>>).items!.i18n;
        const order = (ui.fees!.lines as Record<string, Record<string, string[]>>).items![
          'ui:order'
        ]!;
        order.splice(order.indexOf('i18n'), 1);
      },
    });
    const declare = (target: string) =>
      `the items copy "${target}" from a translatable field: declare "i18n/fr/${target}" (a string) in the items' schema`;
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: 'schemas/visa-application.schema.json',
          pointer: '/catalogLists/0/sources/0/fields/question',
          message: declare('question'),
        },
        {
          file: 'workflows/visa-application.json',
          pointer: '/payment/sources/0/name',
          message: declare('name'),
        },
        {
          file: 'workflows/visa-application.json',
          pointer: '/payment/sources/1/name',
          message: declare('name'),
        },
      ]),
    );
    // The attachments' list still declares its translations: nothing said of it.
    expect(problems.some((p) => p.pointer.startsWith('/catalogLists/1'))).toBe(false);
  });

  it('refuses a catalogue copy of a translatable text whose object does not declare its translations', async () => {
    const problems = await problemsWith<EntityDefinition>({
      'schemas/payment-invoice.schema.json': (entity) => {
        const properties = entity.schema.properties as Record<string, JsonSchema>;
        delete (properties.payTo!.properties as Record<string, JsonSchema>).i18n;
      },
    });
    expect(problems).toEqual([
      {
        file: 'workflows/payment-invoice.json',
        pointer: '/fromCatalog/0/fields/payee',
        message:
          'the copy writes "payee" from a translatable field: declare "i18n/fr/payee" (a string) in the object\'s schema',
      },
    ]);
  });
});
