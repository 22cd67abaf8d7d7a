import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';

dayjs.extend(customParseFormat);

// Dates and money are written as the core writes them everywhere (src/core/format).
export {
  DATE_FORMAT,
  DATETIME_FORMAT,
  formatDate,
  formatDateTime,
  formatMoney,
} from '../../core/format';
import { DATE_FORMAT, DATETIME_FORMAT } from '../../core/format';

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

/** Keeps what may become a decimal amount with at most two decimals. */
export function isMoneyInput(text: string): boolean {
  return /^\d*(\.\d{0,2})?$/.test(text);
}
