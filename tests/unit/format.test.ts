import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
} from '../../src/core/format';

describe('formats of the specification (section 9)', () => {
  it('writes dates DD/MM/YYYY and date-times DD/MM/YYYY HH:mm:ss in local time', () => {
    expect(formatDate('1990-03-15')).toBe('15/03/1990');
    const local = new Date(2026, 10, 2, 7, 5, 9);
    expect(formatDateTime(local.toISOString())).toBe('02/11/2026 07:05:09');
    expect(formatDate(local.toISOString())).toBe('02/11/2026');
  });

  it('leaves text that is not a date as it is', () => {
    expect(formatDate('soon')).toBe('soon');
    expect(formatDateTime('')).toBe('');
  });

  it('keeps at most 6 fraction digits, with the language separators', () => {
    expect(formatNumber(1234.123456789, 'en')).toBe('1,234.123457');
    expect(formatNumber(1234.5, 'fr')).toBe('1\u202f234,5');
  });

  it('writes counts as Intl writes whole numbers, without it', () => {
    const counts = [0, 7, 999, 1000, 1200, 65535, 1_000_000, 987_654_321, -4321, 2 ** 53 - 1];
    for (const language of ['en', 'fr'] as const)
      for (const count of counts)
        expect(formatCount(count, language)).toBe(formatNumber(count, language));
    expect(formatCount(1200, 'fr')).toBe('1\u202f200');
    expect(formatCount(2.5, 'en')).toBe('2.5');
  });

  it('writes amounts in NZD per language, digits taken from the string (no float)', () => {
    expect(formatMoney('1234.5', 'en')).toBe('NZD 1,234.50');
    expect(formatMoney('1234.5', 'fr')).toBe('1\u202f234,50 NZD');
    expect(formatMoney('90071992547409931.01', 'en')).toBe('NZD 90,071,992,547,409,931.01');
    expect(formatMoney('-5', 'en')).toBe('NZD -5.00');
    expect(formatMoney('n/a', 'fr')).toBe('n/a');
  });
});
