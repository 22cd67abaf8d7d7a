import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema';
import { normalizePage, type SearchResult } from '../../../core/search/protocol';
import { compileSearch, type SearchField } from '../../search/compile-search';
import type { DocumentRow, Queryable } from './rows';

/**
 * Queries over many documents: the finders' lists, My Library and My Tasks, the statistics
 * and the public check by number. Every one is paged or aggregated in the database, never by
 * loading every row.
 */

/** The status a deleted document keeps for audit; lists never show it. */
export const DELETED = 'DELETED';

/**
 * A JSON pointer as the text-array path of PostgreSQL's `#>>` (`/role/roleCode` ->
 * `{"role","roleCode"}`), each part unescaped (`~1`, `~0`) and quoted.
 */
export function pointerPath(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return `{${parts.map((p) => `"${p.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** The text at a pointer of a document's data, as SQL (the path is bound, never spliced). */
export function dataText(pointer: string): RawBuilder<string | null> {
  return sql<string | null>`(data #>> ${pointerPath(pointer)})`;
}

/**
 * The header's reference (the visa number once issued, in the specification's document
 * header); a type without one gives null. A fixed pointer: the header convention of every
 * document.
 */
const REFERENCE = dataText('/header/reference');

/**
 * Which documents of a workflow someone sees (decided by access.ts): every one, or their own
 * (with `assigned`, also those assigned to them: the messages they wrote).
 */
export type Visibility = { kind: 'all' } | { kind: 'own'; owner: string; assigned?: boolean };

/** The documents of `type` a visibility allows, as an SQL condition. */
export function visibleTo(type: string, seen: Visibility): RawBuilder<SqlBool> {
  if (seen.kind === 'all') return sql<SqlBool>`(type = ${type})`;
  if (seen.assigned)
    return sql<SqlBool>`(type = ${type} and (owner = ${seen.owner} or assignee = ${seen.owner}))`;
  return sql<SqlBool>`(type = ${type} and owner = ${seen.owner})`;
}

/** Any of the conditions (false when there are none). */
export function anyOf(conditions: readonly RawBuilder<SqlBool>[]): RawBuilder<SqlBool> {
  return conditions.length
    ? sql<SqlBool>`(${sql.join(conditions, sql` or `)})`
    : sql<SqlBool>`false`;
}

/** The document columns a search may filter and sort on, by the names the protocol uses. */
export const HEADER_FIELDS: Record<string, SearchField> = {
  status: { kind: 'text', sql: sql.ref('status') },
  number: { kind: 'text', sql: sql.ref('number') },
  owner: { kind: 'text', sql: sql.ref('owner') },
  ownerName: { kind: 'text', sql: sql.ref('owner_name') },
  assignee: { kind: 'text', sql: sql.ref('assignee') },
  year: { kind: 'number', sql: sql.ref('year') },
  submittedAt: { kind: 'datetime', sql: sql.ref('submitted_at') },
  createdAt: { kind: 'datetime', sql: sql.ref('created_at') },
  updatedAt: { kind: 'datetime', sql: sql.ref('updated_at') },
};

/** The header's reference, for searches that offer it (the dashboard's). */
export const REFERENCE_FIELD: SearchField = { kind: 'text', sql: REFERENCE };

/** The page a search body asks for, and how to describe it in the answer. */
function pageOf(total: number, window: ReturnType<typeof normalizePage>) {
  return {
    total,
    page: window.page,
    itemsPerPage: window.itemsPerPage,
    capped: window.itemsPerPage === -1 && total > window.limit,
  };
}

/** The query a search pages: the documents within a scope, with the columns it selects. */
type DocumentQuery = SelectQueryBuilder<Database, 'document', object>;

/**
 * One page of documents within `scope`, the body's filter and sort on top, `columns` choosing
 * what each row holds. Counting and paging happen in the database, never by loading every row.
 */
async function searchPage<Row>(
  db: Queryable,
  body: unknown,
  fields: Record<string, SearchField>,
  scope: RawBuilder<SqlBool>,
  maxItems: number,
  columns: (query: DocumentQuery) => DocumentQuery,
): Promise<{ rows: Row[]; page: Omit<SearchResult<never>, 'items'> }> {
  const compiled = compileSearch(body, fields, [{ field: 'updatedAt', direction: 'desc' }]);
  const window = normalizePage(compiled.options, maxItems);
  const query = db.selectFrom('document').where(scope).where(compiled.where);
  const { total } = await query
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = (await columns(query)
    .orderBy(compiled.orderBy)
    .orderBy('id')
    .limit(window.limit)
    .offset(window.offset)
    .execute()) as Row[];
  return { rows, page: pageOf(Number(total), window) };
}

/** One page of whole document rows within `scope` (a workflow's finder and lists). */
export function searchRows(
  db: Queryable,
  body: unknown,
  fields: Record<string, SearchField>,
  scope: RawBuilder<SqlBool>,
  maxItems: number,
): Promise<{ rows: DocumentRow[]; page: Omit<SearchResult<never>, 'items'> }> {
  return searchPage<DocumentRow>(db, body, fields, scope, maxItems, (q) => q.selectAll());
}

/** A document row as the dashboard's searches select it (the header, never the data). */
export interface HeaderRow {
  id: string;
  type: string;
  status: string;
  number: string | null;
  reference: string | null;
  assignee: string | null;
  submitted_at: Date | string | null;
  updated_at: Date | string;
  reason?: string;
  list?: string | null;
}

/**
 * One page of document headers within `scope` (My Library, My Tasks); `extraColumns` adds
 * computed columns (a task's reason and list).
 */
export function searchHeaders(
  db: Queryable,
  body: unknown,
  fields: Record<string, SearchField>,
  scope: RawBuilder<SqlBool>,
  maxItems: number,
  extraColumns: Record<string, RawBuilder<unknown>> = {},
): Promise<{ rows: HeaderRow[]; page: Omit<SearchResult<never>, 'items'> }> {
  return searchPage<HeaderRow>(db, body, fields, scope, maxItems, (q) =>
    q
      .select(['id', 'type', 'status', 'number', 'assignee', 'submitted_at', 'updated_at'])
      .select(REFERENCE.as('reference'))
      .select(Object.entries(extraColumns).map(([name, expression]) => expression.as(name))),
  );
}

/**
 * Counts of the visible documents by status created in [from, to), and by UTC calendar month
 * created in [monthsFrom, to): GROUP BY on the (type, created_at) index.
 */
export async function countByStatusAndMonth(
  db: Queryable,
  scope: RawBuilder<SqlBool>,
  year: { from: Date; to: Date },
  months: { from: Date; to: Date },
): Promise<{
  statuses: Array<{ status: string; count: string }>;
  months: Array<{ month: string; count: string }>;
}> {
  const visible = db.selectFrom('document').where(scope).where('status', '<>', DELETED);
  const monthOf = sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM')`;
  const [statuses, perMonth] = await Promise.all([
    visible
      .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
      .where('created_at', '>=', year.from)
      .where('created_at', '<', year.to)
      .groupBy('status')
      .execute(),
    visible
      .select([monthOf.as('month'), (eb) => eb.fn.countAll<string>().as('count')])
      .where('created_at', '>=', months.from)
      .where('created_at', '<', months.to)
      .groupBy(monthOf)
      .execute(),
  ]);
  return { statuses, months: perMonth };
}

/**
 * Documents of `types` with this number, with the text at each of `pointers` as columns p0,
 * p1... (the public check reads a few fields, never the whole data). Served by (type, number).
 */
export async function documentsNumbered(
  db: Queryable,
  types: readonly string[],
  number: string,
  pointers: readonly string[],
): Promise<Array<Record<string, string | null>>> {
  if (types.length === 0) return [];
  return (await db
    .selectFrom('document')
    .select(['type', 'status', 'number'])
    .select(pointers.map((pointer, i) => dataText(pointer).as(`p${i}`)))
    .where('type', 'in', [...types])
    .where('number', '=', number)
    .execute()) as Array<Record<string, string | null>>;
}
