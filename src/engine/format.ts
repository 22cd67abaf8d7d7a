/** Formatting helpers shared by the engine's components; no business knowledge here. */
import { formatDateTime as formatCoreDateTime } from '../core/format';

const pad = (value: number): string => String(value).padStart(2, '0');

/** An ISO instant shown in the browser's time zone as DD/MM/YYYY HH:mm:ss; empty when absent. */
export function formatDateTime(value: unknown): string {
  if (typeof value !== 'string') return '';
  return formatCoreDateTime(value);
}

/** The value of an `<input type="datetime-local">` as an ISO instant; undefined when empty. */
export function localInputToIso(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** A date as the value an `<input type="datetime-local">` expects (local time, seconds). */
export function toLocalInput(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** A cell value as text: dates formatted, booleans and objects made readable. */
export function formatCell(value: unknown, kind: string | undefined): string {
  if (value === null || value === undefined) return '';
  if (kind === 'datetime') return formatDateTime(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
