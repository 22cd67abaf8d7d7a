/** How the portal writes dates, numbers and money (specification 000, section 9), in browser and server. */
import type { Language } from '../i18n/translate';

export const DATE_FORMAT = 'DD/MM/YYYY';
export const DATETIME_FORMAT = 'DD/MM/YYYY HH:mm:ss';
export const CURRENCY = 'NZD';
export const MAX_FRACTION_DIGITS = 6;

/** The locale whose number conventions each language uses: New Zealand English, French. */
const NUMBER_LOCALES: Record<Language, string> = { en: 'en-NZ', fr: 'fr-FR' };

const pad = (value: number): string => String(value).padStart(2, '0');
const dayOf = (date: Date) =>
  `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;

/** `1990-03-15` (or an ISO date-time's date part) -> `15/03/1990`; other text unchanged. */
export function formatDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match) return `${match[3]}/${match[2]}/${match[1]}`;
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(date.getTime())) return value;
  return dayOf(date);
}

/** An ISO instant -> `DD/MM/YYYY HH:mm:ss` in local time; other text unchanged. */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  if (value === '' || Number.isNaN(date.getTime())) return value;
  return `${dayOf(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Intl formatters made once per language and kind: making one costs far more than using it. */
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(
  language: Language,
  kind: string,
  options: Intl.NumberFormatOptions,
): Intl.NumberFormat {
  const key = `${language} ${kind}`;
  const format = numberFormats.get(key) ?? new Intl.NumberFormat(NUMBER_LOCALES[language], options);
  numberFormats.set(key, format);
  return format;
}

/** A number with the language's separators and at most 6 fraction digits. */
export function formatNumber(value: number, language: Language): string {
  return numberFormat(language, 'number', { maximumFractionDigits: MAX_FRACTION_DIGITS }).format(
    value,
  );
}

/** How each language groups the digits of a whole number (CLDR's, as Intl writes them). */
const DIGIT_GROUPS: Record<Language, string> = { en: ',', fr: '\u202f' };

/** A count with the language's digit grouping, without Intl, whose first use loads locale data. */
export function formatCount(value: number, language: Language): string {
  if (!Number.isSafeInteger(value)) return formatNumber(value, language);
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, DIGIT_GROUPS[language]);
  return value < 0 ? `-${digits}` : digits;
}

/** A decimal amount (a string, never a float) with its currency, as the language writes it. */
export function formatMoney(
  amount: string | number,
  language: Language,
  currency: string = CURRENCY,
): string {
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) return String(amount);
    // Written to the cent first, then grouped like any amount given as text.
    return formatMoney(amount.toFixed(2), language, currency);
  }
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) return amount;
  const [, sign = '', whole = '0', cents = ''] = match;
  const parts = numberFormat(language, `currency ${currency}`, {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
  }).formatToParts(0);
  // Signs from Intl, digits from the string itself: no amount ever passes through a float.
  const group = groupSeparator(language);
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  const digits = `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, group)}${decimal}${cents.padEnd(2, '0')}`;
  const currencyFirst = parts.findIndex((p) => p.type === 'currency') === 0;
  const number = `${sign === '-' ? '-' : ''}${digits}`;
  return currencyFirst ? `${currency} ${number}` : `${number} ${currency}`;
}

function groupSeparator(language: Language): string {
  const parts = numberFormat(language, 'plain', {}).formatToParts(1000000);
  return parts.find((p) => p.type === 'group')?.value ?? ',';
}
