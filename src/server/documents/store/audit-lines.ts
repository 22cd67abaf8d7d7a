import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { UUID } from '../../db/ids';
import type { Queryable } from './rows';
import { storeDb } from './tables';

/* The document tables as the audit search reads them (audit/search.ts): the store's to query. */

/** A document as an audit line names it: whose it is, its type and number. */
export interface AuditedDocument {
  id: string;
  type: string;
  owner: string;
  number: string | null;
}

/** The documents with these ids (unknown ones are left out). */
export async function auditedDocuments(
  db: Queryable,
  ids: readonly string[],
): Promise<Map<string, AuditedDocument>> {
  const wanted = [...new Set(ids.filter((id) => UUID.test(id)))];
  if (wanted.length === 0) return new Map();
  const rows = await storeDb(db)
    .selectFrom('document')
    .select(['id', 'type', 'owner', 'number'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** The ids of the documents a person names by id or by number (any case). */
export async function documentIdsNamed(db: Queryable, named: string): Promise<string[]> {
  const text = named.trim();
  if (text.length === 0 || text.includes('\u0000')) return [];
  if (UUID.test(text)) return [text.toLowerCase()];
  const rows = await storeDb(db)
    .selectFrom('document')
    .select('id')
    .where(sql<SqlBool>`upper(number) = ${text.toUpperCase()}`)
    .execute();
  return rows.map((row) => row.id);
}

/** The document that names an upload in its data or in an answer to a request, if one does. */
export async function documentNamingUpload(
  db: Queryable,
  mediaId: string,
): Promise<AuditedDocument | undefined> {
  if (!UUID.test(mediaId)) return undefined;
  const named = await storeDb(db)
    .selectFrom('document_media')
    .innerJoin('document', 'document.id', 'document_media.document_id')
    .select(['document.id', 'document.type', 'document.owner', 'document.number'])
    .where('document_media.media_id', '=', mediaId)
    .executeTakeFirst();
  if (named) return named;
  return storeDb(db)
    .selectFrom('document_request')
    .innerJoin('document', 'document.id', 'document_request.document_id')
    .select(['document.id', 'document.type', 'document.owner', 'document.number'])
    .where('document_request.media_id', '=', mediaId)
    .executeTakeFirst();
}

/** Where a page of lines starts: after the line at `at` (microseconds, ISO) with this id. */
export interface LinesAfter {
  at: string;
  /** Lines at `at` itself: all (`'all'`), none (`'none'`), or those with a smaller id. */
  sameAt: 'all' | 'none' | { idBelow: string };
}

export interface HistoryLineFilter {
  documentIds?: readonly string[];
  /** Actor ids, or a piece of an actor's name. */
  actors?: readonly string[];
  actorName?: string;
  from?: Date;
  to?: Date;
  after?: LinesAfter;
  limit: number;
}

/** A line of a document's history, as the audit search shows it (kind `change`). */
export interface HistoryLine {
  id: string;
  at: string;
  actor: string;
  actorName: string;
  action: string;
  fromStatus: string;
  toStatus: string;
  documentId: string;
  documentType: string;
  documentNumber: string | null;
  onBehalfOfName: string | null;
}

/** A time column as ISO text in UTC to the microsecond: a page's cursor compares to it exactly. */
export function utcMicros(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** The condition "after `after`" on a time column and an id column (newest first). */
export function linesAfter(
  after: LinesAfter,
  atColumn: string,
  idColumn: string,
): RawBuilder<SqlBool> {
  const at = sql`${after.at}::timestamptz`;
  const column = sql.ref(atColumn);
  const same = after.sameAt;
  if (same === 'all') return sql<SqlBool>`${column} <= ${at}`;
  if (same === 'none') return sql<SqlBool>`${column} < ${at}`;
  return sql<SqlBool>`(${column} < ${at} or (${column} = ${at} and ${sql.ref(idColumn)} < ${same.idBelow}::bigint))`;
}

/** Documents' history lines, newest first (the audit search's `change` lines). */
export async function historyLinesForAudit(
  db: Queryable,
  filter: HistoryLineFilter,
): Promise<HistoryLine[]> {
  let query = storeDb(db)
    .selectFrom('document_history as h')
    .innerJoin('document as d', 'd.id', 'h.document_id')
    .select([
      sql<string>`h.id::text`.as('id'),
      utcMicros('h.at').as('at'),
      'h.actor',
      'h.actor_name',
      'h.action',
      'h.from_status',
      'h.to_status',
      'h.document_id',
      'd.type',
      'd.number',
      'h.on_behalf_of_name',
    ]);
  if (filter.documentIds) {
    if (filter.documentIds.length === 0) return [];
    query = query.where('h.document_id', 'in', [...filter.documentIds]);
  }
  const actors = filter.actors ?? [];
  if (actors.length || filter.actorName)
    query = query.where((eb) =>
      eb.or([
        ...(actors.length ? [eb('h.actor', 'in', [...actors])] : []),
        ...(filter.actorName ? [eb('h.actor_name', 'ilike', likePattern(filter.actorName))] : []),
      ]),
    );
  if (filter.from) query = query.where('h.at', '>=', filter.from);
  if (filter.to) query = query.where('h.at', '<', filter.to);
  if (filter.after) query = query.where(linesAfter(filter.after, 'h.at', 'h.id'));
  const rows = await query
    .orderBy('h.at', 'desc')
    .orderBy('h.id', 'desc')
    .limit(filter.limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    at: row.at,
    actor: row.actor,
    actorName: row.actor_name,
    action: row.action,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    documentId: row.document_id,
    documentType: row.type,
    documentNumber: row.number,
    onBehalfOfName: row.on_behalf_of_name,
  }));
}

/** `%text%` for ILIKE, its own wildcards taken literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
