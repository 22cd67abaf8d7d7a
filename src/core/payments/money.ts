/** Money as integer cents and decimal strings, never floats: fees must add up to the cent. */

const DECIMAL = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** Cents of a decimal amount ("150", "150.5", "150.50", or the JSON number 150.5); undefined if it is not one. */
export function toCents(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const [, whole = '0', fraction = ''] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** A decimal string with two places: 15050 -> "150.50". */
export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}
