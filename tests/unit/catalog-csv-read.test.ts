import { describe, expect, it } from 'vitest';
import { readDateTime, readDecimal } from '../../src/core/definitions/catalog-csv-read';
import { formatDateTime, formatMoney } from '../../src/core/format';

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
