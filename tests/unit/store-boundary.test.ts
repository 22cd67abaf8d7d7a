import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One write path: the document tables are the store's (src/server/documents/store/), the outbox
 * the notifications' (src/server/notifications/, everything else calls `enqueue()`). The type
 * `Database` the server hands around leaves them out, so a query on them elsewhere does not
 * compile; this scan keeps the rest from coming back: a Kysely query or raw SQL naming them, or
 * an import of the store's full table type, outside their folders.
 */
const SRC = path.resolve(import.meta.dirname, '../../src');
const DOCUMENT_TABLES = [
  'document',
  'document_version',
  'document_history',
  'document_sequence',
  'document_media',
  'document_case_note',
  'document_case_note_edit',
  'document_request',
];

/** Where a table may be queried, besides the migrations and the index builders (DDL). */
const OWNERS: Array<{ tables: string[]; folder: string }> = [
  { tables: DOCUMENT_TABLES, folder: 'server/documents/store/' },
  { tables: ['outbox'], folder: 'server/notifications/' },
];
const SCHEMA_MANAGEMENT = [
  'server/db/migrations/',
  'server/db/key-indexes.ts',
  'server/db/list-indexes.ts',
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Kysely calls and SQL text that read or write `table`. */
function queriesOf(table: string): RegExp {
  const kysely = `(selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|mergeInto)\\(\\s*'${table}(\\s+as\\s+\\w+)?'`;
  const text = `\\b(from|into|update|join)\\s+${table}(?=\\s*(\\(|where\\b|set\\b|as\\b|on\\b|using\\b|$|\`))`;
  return new RegExp(`${kysely}|${text}`, 'i');
}

const files = sourceFiles(SRC).map((file) => ({
  file: path.relative(SRC, file).split(path.sep).join('/'),
  text: fs.readFileSync(file, 'utf8'),
}));

describe('the store boundary', () => {
  for (const { tables, folder } of OWNERS) {
    it(`queries ${tables.join(', ')} only in ${folder}`, () => {
      const found = files
        .filter(({ file }) => !file.startsWith(folder))
        .filter(({ file }) => !SCHEMA_MANAGEMENT.some((allowed) => file.startsWith(allowed)))
        .flatMap(({ file, text }) =>
          text
            .split('\n')
            .flatMap((line, index) =>
              tables.some((table) => queriesOf(table).test(line)) ? [`${file}:${index + 1}`] : [],
            ),
        );
      expect(found).toEqual([]);
    });
  }

  it("keeps the store's full table type in the store", () => {
    const importers = files
      .filter(({ file }) => !file.startsWith('server/documents/store/'))
      .filter(({ text }) => /from '[./]*(documents\/)?store\/tables'/.test(text))
      .map(({ file }) => file);
    expect(importers).toEqual([]);
  });

  it('finds a query that breaks it', () => {
    expect(queriesOf('document').test("  .selectFrom('document')")).toBe(true);
    expect(queriesOf('document_history').test('insert into document_history (id)')).toBe(true);
    expect(queriesOf('outbox').test("await trx.insertInto('outbox')")).toBe(true);
    expect(queriesOf('document').test("selectFrom('document_media')")).toBe(false);
    expect(queriesOf('document').test('the document from document.ts')).toBe(false);
  });
});
