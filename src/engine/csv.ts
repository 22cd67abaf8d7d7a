import Papa from 'papaparse';

/** CSV of rows by columns, made in the browser; the first line holds the titles. */
export function toCsv(
  columns: Array<{ title: string; value: (row: Record<string, unknown>) => string }>,
  rows: Array<Record<string, unknown>>,
): string {
  return Papa.unparse({
    fields: columns.map((c) => c.title),
    data: rows.map((row) => columns.map((c) => c.value(row))),
  });
}

export function downloadText(
  fileName: string,
  text: string,
  type = 'text/csv;charset=utf-8',
): void {
  const url = URL.createObjectURL(new Blob(['\ufeff', text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A CSV file's rows; `,` or `;` separated; `unreadable`: the row (1-based) of an unterminated quote. */
export function parseCsv(text: string): { rows: string[][]; unreadable?: number } {
  const parsed = Papa.parse<string[]>(text.replace(/^\ufeff/, ''), { skipEmptyLines: 'greedy' });
  // A file of one column has no separator to find: that is no error.
  const error = parsed.errors.find((e) => e.type !== 'Delimiter');
  return error ? { rows: parsed.data, unreadable: (error.row ?? 0) + 1 } : { rows: parsed.data };
}
