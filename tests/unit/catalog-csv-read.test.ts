import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  readCatalogCsv,
  readDateTime,
  readDecimal,
} from '../../src/core/definitions/catalog-csv-read';
import type { CatalogDefinition } from '../../src/core/definitions/types';
import { formatDateTime, formatMoney } from '../../src/core/format';
import type { TextTree } from '../../src/core/i18n/translate';

const root = path.resolve(import.meta.dirname, '../..');
const read = <T>(file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as T;
/** The portal's texts with their enumerations' words, as the definitions bundle serves them. */
const texts = Object.fromEntries(
  (['en', 'fr'] as const).map((language) => [
    language,
    {
      ...read<TextTree>(`translations/${language}.json`),
      enumerations: read<TextTree>(`translations/${language}/enumerations.json`),
    },
  ]),
);
const country = read<CatalogDefinition>('catalogs/country.json');
const attachment = read<CatalogDefinition>('catalogs/attachment.json');

/**
 * The import's reading of amounts and dates (docs/catalogues.md, "Import CSV"): whatever the
 * export writes reads back as the value it wrote, in either language; what is ambiguous reads as
 * the page's language writes it; what is no amount or date is left for the server to refuse.
 */
describe('reading a CSV cell', () => {
  it('reads back every amount the export writes, in either language', () => {
    for (const amount of [0, 12.5, 250, 1250.5, 1000000, 999999.99])
      for (const language of ['en', 'fr'] as const)
        for (const page of ['en', 'fr'] as const)
          expect(readDecimal(formatMoney(amount, language, 'NZD'), 'NZD', page)).toBe(amount);
  });

  it('reads plain decimals, and a lone comma as the page writes numbers', () => {
    expect(readDecimal('250.00', 'NZD', 'fr')).toBe(250);
    expect(readDecimal('250,5', 'NZD', 'en')).toBe(250.5);
    expect(readDecimal('1,250', undefined, 'en')).toBe(1250);
    expect(readDecimal('1,250', undefined, 'fr')).toBe(1.25);
    expect(readDecimal('-3', undefined, 'en')).toBe(-3);
    for (const text of ['a lot', 'USD 5.00', '1.2.3', '', '12,34,5', 'NZD'])
      expect(readDecimal(text, 'NZD', 'en'), text).toBeUndefined();
  });

  it('reads back the export’s dates and times, in local time, and ISO 8601', () => {
    for (const iso of ['2020-01-01T00:00:00.000Z', '2031-06-30T22:15:07.000Z'])
      expect(readDateTime(formatDateTime(iso))).toBe(iso);
    expect(readDateTime('05/03/2024')).toBe(new Date(2024, 2, 5).toISOString());
    expect(readDateTime('2024-03-05T10:00:00Z')).toBe('2024-03-05T10:00:00.000Z');
    for (const text of ['31/02/2024 00:00:00', '01/01/2024 25:00:00', '2024-13-01', 'soon'])
      expect(readDateTime(text), text).toBeUndefined();
  });
});

describe('reading a CSV file as entries', () => {
  it('knows a column by its title in either language, its label, or the field’s name', () => {
    const reading = readCatalogCsv(
      [
        ['\ufeffcode', 'Name', 'Nom (français)', 'Alpha-3 code', 'Valide à partir du'],
        ['WS', 'Samoa', 'Samoa (fr)', 'XXX', '01/01/2020 00:00:00'],
      ],
      country,
      texts,
      'en',
    );
    expect(reading.problems).toEqual([]);
    expect(reading.entries).toEqual([
      {
        code: 'WS',
        name: 'Samoa',
        i18n: { fr: { name: 'Samoa (fr)' } },
        startTime: new Date(2020, 0, 1).toISOString(),
      },
    ]);
    // What only the system writes is left out, and said so; what the file lacks is listed.
    expect(reading.ignored).toEqual(['Alpha-3 code']);
    expect(reading.missing).toEqual([{ field: 'endTime' }]);
  });

  it('reads an enumeration’s words and flags in either language', () => {
    const reading = readCatalogCsv(
      [
        ['documentCode', 'code', 'type', 'name', 'mandatory', 'startTime'],
        ['VIS', 'PP', 'Sous-document', 'Passport', 'Oui', '2020-01-01T00:00:00Z'],
        ['VIS', 'PH', '1', 'Photo', 'No', '2020-01-01T00:00:00Z'],
      ],
      attachment,
      texts,
      'fr',
    );
    expect(reading.entries.map((entry) => [entry.type, entry.mandatory])).toEqual([
      ['2', true],
      ['1', false],
    ]);
  });

  it('refuses a file whose columns are not the catalogue’s, or that has no rows', () => {
    expect(readCatalogCsv([['code', 'colour', 'Code']], country, texts, 'en').problems).toEqual([
      { kind: 'unknownColumn', title: 'colour' },
      { kind: 'repeatedColumn', title: 'Code' },
      { kind: 'noRows' },
    ]);
  });
});
