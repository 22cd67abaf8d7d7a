import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';

dayjs.extend(customParseFormat);

export const DATE_FORMAT = 'DD/MM/YYYY';
export const DATETIME_FORMAT = 'DD/MM/YYYY HH:mm:ss';

/** `1990-03-15` -> `15/03/1990`; anything else is returned unchanged. */
export function formatDate(iso: string): string {
  const parsed = dayjs(iso, 'YYYY-MM-DD', true);
  return parsed.isValid() ? parsed.format(DATE_FORMAT) : iso;
}

/** An ISO date-time -> `DD/MM/YYYY HH:mm:ss` in local time. */
export function formatDateTime(iso: string): string {
  const parsed = dayjs(iso);
  return parsed.isValid() ? parsed.format(DATETIME_FORMAT) : iso;
}

/** `15/03/1990` -> `1990-03-15`, or null when not a valid date. */
export function parseDate(text: string): string | null {
  const parsed = dayjs(text.trim(), DATE_FORMAT, true);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD') : null;
}

/** `15/03/1990 10:20:30` -> `1990-03-15 10:20:30` (the picker's value), or null. */
export function parseDateTime(text: string): string | null {
  const parsed = dayjs(text.trim(), DATETIME_FORMAT, true);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD HH:mm:ss') : null;
}

/** The picker's local `YYYY-MM-DD HH:mm:ss` -> ISO 8601 with offset (JSON Schema date-time). */
export function pickerToIso(value: string): string {
  return dayjs(value, 'YYYY-MM-DD HH:mm:ss').format('YYYY-MM-DDTHH:mm:ssZ');
}

export function isoToPicker(iso: string): string | null {
  const parsed = dayjs(iso);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD HH:mm:ss') : null;
}

/** A decimal string in NZD, never a float: `1234.5` -> `NZD 1,234.50`. */
export function formatMoney(amount: string): string {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) return amount;
  const [, sign = '', whole = '0', cents = ''] = match;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `NZD ${sign}${grouped}.${cents.padEnd(2, '0')}`;
}

/** Keeps what may become a decimal amount with at most two decimals. */
export function isMoneyInput(text: string): boolean {
  return /^\d*(\.\d{0,2})?$/.test(text);
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
