import { sql, type AliasedRawBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { ALL_ITEMS, normalizePage, type SearchResult } from '../../../core/search/protocol';
import { compileSearch, type SearchField } from '../../search/compile-search';
import { afterCursor, decodeCursor, encodeCursor, keysetOrder } from '../../search/keyset';
import type { DocumentRow, Queryable } from './rows';
import { storeDb } from './tables';
import { UUID } from '../../db/ids';
import { foldedOwnerName } from '../../db/list-indexes';
import { ApiProblem, ERROR_CODES } from '../../http/api-error';

/** Queries over many documents, paged or aggregated in the database, never by loading every row. */

/** The status a deleted document keeps for audit; lists never show it. */
export const DELETED = 'DELETED';

/** A JSON pointer as the text-array path of PostgreSQL's `#>>` (`/a/b` -> `{"a","b"}`). */
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

/** Which documents of a workflow someone sees (access.ts): all, or their own (and assigned). */
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
  status: { kind: 'text', sql: sql.ref('status'), notNull: true },
  number: { kind: 'text', sql: sql.ref('number') },
  owner: { kind: 'text', sql: sql.ref('owner'), notNull: true },
  // Folded as a data column's text is, and indexed so (db/list-indexes.ts).
  ownerName: { kind: 'text', sql: sql.ref('owner_name'), folded: foldedOwnerName() },
  assignee: { kind: 'text', sql: sql.ref('assignee') },
  year: { kind: 'number', sql: sql.ref('year') },
  submittedAt: { kind: 'datetime', sql: sql.ref('submitted_at') },
  createdAt: { kind: 'datetime', sql: sql.ref('created_at'), notNull: true },
  updatedAt: { kind: 'datetime', sql: sql.ref('updated_at'), notNull: true },
};

/** Documents with every one of these flags set (the GIN index on `flags` answers it). */
export function flaggedWith(flags: readonly string[]): RawBuilder<SqlBool> {
  if (flags.length === 0) return sql<SqlBool>`true`;
  return sql<SqlBool>`(flags @> ${sql.val([...flags])}::text[])`;
}

/** The assignee's name as SQL: their account's, else as recorded (a non-uuid is never cast). */
export function assigneeName(accountType: string | undefined): RawBuilder<string | null> {
  if (!accountType) return sql<string | null>`document.assignee`;
  return sql<string | null>`coalesce((select assigned.owner_name from document assigned
    where assigned.type = ${accountType} and assigned.id = (case when document.assignee ~* ${UUID.source}
    then document.assignee::uuid end)), document.assignee)`;
}

/** The header's reference (null for a type without one), for the dashboard's searches. */
export const REFERENCE_FIELD: SearchField = { kind: 'text', sql: dataText('/header/reference') };

/** How much a search may return (itemsPerPage -1) and how far it counts exactly (0: always). */
export interface SearchLimits {
  maxItems: number;
  exactCountLimit: number;
  /**
   * Rows a page asked by number may skip (0: any). Skipping reads every skipped row, so page
   * 50,000 costs fifty thousand times page 1; past this a page is reached by its cursor.
   */
  maxOffset?: number;
}

/** Every list's order unless the body sorts otherwise: the newest change first. */
const DEFAULT_SORT = [{ field: 'updatedAt', direction: 'desc' as const }];

/** What a page says besides its items. */
type PageInfo = Omit<SearchResult<never>, 'items'>;

/**
 * How far a search counts: a hundredth of the limit when each counted row is read in the table
 * (a name's index finds the rows, but an expression index cannot count them alone: each is
 * visited, 10-100 µs when its page is not in memory). A hundred rows cost a few milliseconds at
 * a million documents; a thousand cost 100-270 ms (docs/performance.md, "Scale").
 */
function countLimit(limit: number, compiled: { readsData: boolean }): number {
  return compiled.readsData && limit > 0 ? Math.ceil(limit / 100) : limit;
}

/** How many documents match, up to the limit; disjoint `parts` (My Tasks) each use their index. */
async function countUpTo(
  db: Queryable,
  parts: readonly RawBuilder<SqlBool>[],
  where: RawBuilder<SqlBool>,
  limit: number,
  /** An order an index serves (compile-search.ts, `countOrder`): the count walks that index. */
  order?: RawBuilder<unknown>,
): Promise<{ total: number; totalIsLowerBound: boolean }> {
  const counts = parts.map((part) => {
    let matching = storeDb(db)
      .selectFrom('document')
      .where(part)
      .where(where)
      .select(sql`1`.as('one'));
    if (limit > 0) matching = matching.limit(limit + 1);
    if (limit > 0 && order) matching = matching.orderBy(order);
    return sql<string>`(select count(*) from ${matching.as('matching')})`;
  });
  const { rows } = await sql<{
    n: string;
  }>`select ${counts.length ? sql.join(counts, sql` + `) : sql`0`} as n`.execute(db);
  const count = Number(rows[0]?.n ?? 0);
  return limit > 0 && count > limit
    ? { total: limit, totalIsLowerBound: true }
    : { total: count, totalIsLowerBound: false };
}

/** One page within `scope` with the body's filter and sort; one row more tells if more follow. */
async function searchPage<Row>(
  db: Queryable,
  body: unknown,
  fields: Record<string, SearchField>,
  scope: RawBuilder<SqlBool>,
  limits: SearchLimits,
  columns: readonly AliasedRawBuilder<unknown, string>[],
  countParts: readonly RawBuilder<SqlBool>[] = [scope],
  /** An order that replaces the sort (a name search's closeness): pages by offset only. */
  ranked?: RawBuilder<number>,
): Promise<{ rows: Row[]; page: PageInfo }> {
  const compiled = compileSearch(body, fields, DEFAULT_SORT);
  const keys = ranked ? [] : compiled.sort;
  const cursor = ranked ? undefined : decodeCursor(compiled.options?.cursor, keys);
  const window = normalizePage(compiled.options, limits.maxItems);
  if (!cursor && limits.maxOffset && window.offset > limits.maxOffset)
    throw new ApiProblem(400, ERROR_CODES.pageTooDeep, { limit: limits.maxOffset }, [
      { path: '/options/page', rule: 'pageTooDeep', params: { limit: limits.maxOffset } },
    ]);
  const matching = storeDb(db).selectFrom('document').where(scope).where(compiled.where);
  const cursorValues = keys.map((key, i) => sql`to_jsonb(${key.expression})`.as(`page_v${i}`));
  // Ranked: the index gives the rows in that order; a tie-break would make it read them all.
  const order = ranked ?? keysetOrder(keys, [], sql`id`);
  let pageRows: Promise<Array<Record<string, unknown>>>;
  if (cursor || window.offset === 0) {
    // The first page, or the one after a cursor: its rows straight in the index's order.
    pageRows = (cursor ? matching.where(afterCursor(keys, cursor, sql`id`)) : matching)
      .select(columns)
      .select(sql<string>`document.id`.as('page_id'))
      .select(cursorValues)
      .orderBy(order)
      .limit(window.limit + 1)
      .execute();
  } else {
    // After an offset: the skipped ids come from the index alone, then only the page's rows.
    const ids = matching
      .select(sql<string>`id`.as('page_id'))
      .$if(ranked !== undefined, (query) => query.select(ranked!.as('page_rank')))
      .select(keys.map((key, i) => key.expression.as(`page_s${i}`)))
      .select(cursorValues)
      .orderBy(order)
      .limit(window.limit + 1)
      .offset(window.offset);
    pageRows = storeDb(db)
      .selectFrom(ids.as('page'))
      .innerJoin('document', (join) => join.on(sql<SqlBool>`document.id = page.page_id`))
      .select(columns)
      .select(sql<string>`page.page_id`.as('page_id'))
      .select(keys.map((_, i) => sql`page.${sql.id(`page_v${i}`)}`.as(`page_v${i}`)))
      .orderBy(
        ranked
          ? sql`page.page_rank`
          : keysetOrder(
              keys,
              keys.map((_, i) => sql`page.${sql.id(`page_s${i}`)}`),
              sql`page.page_id`,
            ),
      )
      .execute();
  }
  const [found, counted] = await Promise.all([
    pageRows,
    countUpTo(
      db,
      countParts,
      compiled.where,
      // A name search's matches are confirmed row by row, as a data field's are.
      countLimit(limits.exactCountLimit, { readsData: compiled.readsData || Boolean(ranked) }),
      compiled.countOrder,
    ),
  ]);
  const more = found.length > window.limit;
  const rows = more ? found.slice(0, window.limit) : found;
  const last = rows.at(-1);
  return {
    rows: rows as Row[],
    page: {
      ...counted,
      page: window.page,
      itemsPerPage: window.itemsPerPage,
      capped: window.itemsPerPage === ALL_ITEMS && more,
      nextCursor:
        more && last && !ranked
          ? encodeCursor(
              keys,
              keys.map((_, i) => last[`page_v${i}`] ?? null),
              String(last.page_id),
            )
          : null,
    },
  };
}

const SUMMARY_COLUMNS = [
  'id',
  'type',
  'status',
  'version',
  'owner',
  'owner_name',
  'assignee',
  'number',
  'submitted_at',
  'created_at',
  'updated_at',
  'flags',
] as const;

/** A finder's row: the header, and the list's values at their pointers. */
export type SummaryRow = Pick<DocumentRow, (typeof SUMMARY_COLUMNS)[number]> & {
  assignee_name?: string | null;
  /** Whether screening found a hit (a list showing `screeningHit`). */
  screening_hit?: boolean;
  /** The JSON value at each of the pointers asked for, in their order. */
  [value: `value${number}`]: unknown;
};

/** One page of a finder or list: header columns, the JSON at each pointer as `value0`... */
export function searchRows(
  db: Queryable,
  body: unknown,
  fields: Record<string, SearchField>,
  scope: RawBuilder<SqlBool>,
  limits: SearchLimits,
  pointers: readonly string[],
  assigneeNames?: { accountType: string | undefined },
  extraColumns: Record<string, RawBuilder<unknown>> = {},
  ranked?: RawBuilder<number>,
): Promise<{ rows: SummaryRow[]; page: PageInfo }> {
  return searchPage<SummaryRow>(
    db,
    body,
    fields,
    scope,
    limits,
    [
      ...SUMMARY_COLUMNS.map((column) => sql`document.${sql.id(column)}`.as(column)),
      ...pointers.map((pointer, i) =>
        sql`(document.data #> ${pointerPath(pointer)})`.as(`value${i}`),
      ),
      ...(assigneeNames ? [assigneeName(assigneeNames.accountType).as('assignee_name')] : []),
      ...Object.entries(extraColumns).map(([name, expression]) => expression.as(name)),
    ],
    [scope],
    ranked,
  );
}

const HEADER_COLUMNS = [
  'id',
  'type',
  'status',
  'number',
  'assignee',
  'submitted_at',
  'updated_at',
] as const;

/** A document row as the dashboard's searches select it (never the data). */
export type HeaderRow = Pick<DocumentRow, (typeof HEADER_COLUMNS)[number]> & {
  reference: string | null;
  reason?: string;
  list?: string | null;
};

/** One page of document headers (My Library, My Tasks); `countParts` split the scope disjointly. */
export function searchHeaders(
  db: Queryable,
  body: unknown,
  fields: Record<string, SearchField>,
  scope: RawBuilder<SqlBool>,
  limits: SearchLimits,
  extraColumns: Record<string, RawBuilder<unknown>> = {},
  countParts: readonly RawBuilder<SqlBool>[] = [scope],
): Promise<{ rows: HeaderRow[]; page: PageInfo }> {
  return searchPage<HeaderRow>(
    db,
    body,
    fields,
    scope,
    limits,
    [
      ...HEADER_COLUMNS.map((column) => sql`document.${sql.id(column)}`.as(column)),
      sql`(document.data #>> ${pointerPath('/header/reference')})`.as('reference'),
      ...Object.entries(extraColumns).map(([name, expression]) => expression.as(name)),
    ],
    countParts,
  );
}

/** Counts of the visible documents created in `year` by status, and in `months` by UTC month. */
export async function countByStatusAndMonth(
  db: Queryable,
  scope: RawBuilder<SqlBool>,
  year: { from: Date; to: Date },
  months: { from: Date; to: Date },
): Promise<{
  statuses: Array<{ status: string; count: string }>;
  months: Array<{ month: string; count: string }>;
}> {
  const visible = storeDb(db).selectFrom('document').where(scope).where('status', '<>', DELETED);
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

/** Documents of `types` with this number, with the text at each of `pointers` as p0, p1... */
export async function documentsNumbered(
  db: Queryable,
  types: readonly string[],
  number: string,
  pointers: readonly string[],
): Promise<Array<Record<string, string | null>>> {
  if (types.length === 0) return [];
  return (await storeDb(db)
    .selectFrom('document')
    .select(['id', 'type', 'status', 'number'])
    .select(pointers.map((pointer, i) => dataText(pointer).as(`p${i}`)))
    .where('type', 'in', [...types])
    .where('number', '=', number)
    .execute()) as Array<Record<string, string | null>>;
}
