/**
 * What My Library and My Tasks share: the searchable fields of a document row across workflows,
 * the paged query, and the row's shape. Both read the document table only (never the data but
 * its header reference), with the page applied in SQL.
 */
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { DASHBOARD_ROLES, type LibraryRow } from '../../core/dashboard/types';
import { normalizePage, type SearchResult } from '../../core/search/protocol';
import { requireAnyRole } from '../auth/plugin';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { compileSearch, type SearchField } from '../search/compile-search';
import type { CompiledWorkflow } from '../documents/workflows';

/** The status a deleted document keeps for audit; lists never show it. */
export const DELETED = 'DELETED';

/**
 * The header's reference (the visa number once issued, in the specification's document header);
 * a type without one gives null. A fixed pointer: it is the header convention of every document.
 */
const REFERENCE = sql<string | null>`(data #>> '{header,reference}')`;

/** The caller of a dashboard endpoint: signed in (else 401), holding a dashboard role (else 403). */
export function dashboardCaller(request: FastifyRequest): Principal {
  return requireAnyRole(request, DASHBOARD_ROLES);
}

/**
 * Fields a dashboard search may filter and sort on. `documentType` is the workflow's schema,
 * spelled as a CASE over the known workflows so it can be filtered like a column.
 */
export function documentFields(
  workflows: readonly CompiledWorkflow[],
  extra: Record<string, SearchField> = {},
): Record<string, SearchField> {
  const documentType = workflows.length
    ? sql`(case type ${sql.join(
        workflows.map((w) => sql`when ${w.definition.id} then ${w.definition.document}`),
        sql` `,
      )} else type end)`
    : sql`type`;
  return {
    workflow: { kind: 'text', sql: sql.ref('type') },
    documentType: { kind: 'text', sql: documentType },
    number: { kind: 'text', sql: sql.ref('number') },
    reference: { kind: 'text', sql: REFERENCE },
    status: { kind: 'text', sql: sql.ref('status') },
    submittedAt: { kind: 'datetime', sql: sql.ref('submitted_at') },
    createdAt: { kind: 'datetime', sql: sql.ref('created_at') },
    updatedAt: { kind: 'datetime', sql: sql.ref('updated_at') },
    ...extra,
  };
}

/** A document row as the dashboard queries select it. */
export interface SelectedRow {
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
 * Runs one page of a dashboard search: `scope` says which documents the caller may list, the
 * body's filter and sort apply on top, `extraColumns` adds computed columns (reason, list).
 * Counting and paging happen in the database, never by loading every row.
 */
export async function pagedSearch(
  db: Kysely<Database>,
  body: unknown,
  fields: Record<string, SearchField>,
  scope: RawBuilder<SqlBool>,
  maxItems: number,
  extraColumns: Record<string, RawBuilder<unknown>> = {},
): Promise<{ rows: SelectedRow[]; page: Omit<SearchResult<never>, 'items'> }> {
  const compiled = compileSearch(body, fields, [{ field: 'updatedAt', direction: 'desc' }]);
  const window = normalizePage(compiled.options, maxItems);
  const query = db.selectFrom('document').where(scope).where(compiled.where);
  const { total } = await query
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = (await query
    .select(['id', 'type', 'status', 'number', 'assignee', 'submitted_at', 'updated_at'])
    .select(REFERENCE.as('reference'))
    .select(Object.entries(extraColumns).map(([name, expression]) => expression.as(name)))
    .orderBy(compiled.orderBy)
    .orderBy('id')
    .limit(window.limit)
    .offset(window.offset)
    .execute()) as SelectedRow[];
  const count = Number(total);
  return {
    rows,
    page: {
      total: count,
      page: window.page,
      itemsPerPage: window.itemsPerPage,
      capped: window.itemsPerPage === -1 && count > window.limit,
    },
  };
}

export function libraryRow(
  row: SelectedRow,
  workflows: ReadonlyMap<string, CompiledWorkflow>,
): LibraryRow {
  return {
    workflow: row.type,
    documentType: workflows.get(row.type)?.definition.document ?? row.type,
    id: row.id,
    number: row.number,
    reference: row.reference,
    status: row.status,
    updatedAt: iso(row.updated_at),
    submittedAt: row.submitted_at === null ? null : iso(row.submitted_at),
  };
}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
