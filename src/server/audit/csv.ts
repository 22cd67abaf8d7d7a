import type { AuditLine } from './search';

/** The most lines one export writes: a larger period is exported in parts. */
export const AUDIT_CSV_MAX_LINES = 100_000;

const COLUMNS: Array<[header: string, value: (line: AuditLine, words: Words) => string]> = [
  ['at', (line) => line.at],
  ['kind', (line) => line.kind],
  ['kind_words', (line, words) => words(`audit.kinds.${line.kind}`)],
  ['action', (line) => line.action],
  ['action_words', (line, words) => words(`audit.actions.${line.action}`)],
  ['actor', (line) => line.actor],
  ['actor_name', (line) => line.actorName],
  ['document_type', (line) => line.documentType ?? ''],
  ['document_number', (line) => line.documentNumber ?? ''],
  ['document_id', (line) => line.documentId ?? ''],
  ['target', (line) => line.target ?? ''],
  ['route', (line) => line.route ?? ''],
  ['screen', (line) => line.screen ?? ''],
  ['address_class', (line) => line.addressClass ?? ''],
  ['detail', (line) => (line.detail ? JSON.stringify(line.detail) : '')],
];

type Words = (key: string) => string;

/**
 * The lines as CSV: UTF-8 with a BOM (spreadsheets then read accents right), a header row, CRLF
 * line ends (RFC 4180), each cell quoted when it must be, and one a spreadsheet would take for a
 * formula (`=`, `+`, `-`, `@`) led by an apostrophe.
 */
export async function auditCsv(
  lines: AsyncIterable<AuditLine>,
  words: Words,
): Promise<{ text: string; lines: number }> {
  const rows = [COLUMNS.map(([header]) => header).join(',')];
  for await (const line of lines)
    rows.push(COLUMNS.map(([, value]) => cell(value(line, words))).join(','));
  return { text: `\uFEFF${rows.join('\r\n')}\r\n`, lines: rows.length - 1 };
}

function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
