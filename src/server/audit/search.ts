import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema';
import type { AccountLookup } from '../documents/effect-context';
import {
  auditedDocuments,
  documentIdsNamed,
  historyLinesForAudit,
  likePattern,
  linesAfter,
  utcMicros,
  type LinesAfter,
} from '../documents/store/audit-lines';
import { findByKey } from '../documents/store/lookups';
import { invalid } from '../search/compile-search';
import type { AuditLine, AuditPage } from '../../core/audit/lines';
import { AUDIT_KINDS, type AuditKind } from './log';

/** What the audit search is asked (docs/audit.md, "Search"). */
export interface AuditQuery {
  /** Who did it: an account's login, id, or a piece of a name. */
  person?: string;
  /** Which document: its number or id. */
  document?: string;
  kind?: AuditKind;
  /** A day (the whole day, UTC) or an instant. */
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}

export type { AuditLine, AuditPage } from '../../core/audit/lines';

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 500;

/**
 * The sources of lines, in the order lines of one instant are given: the trail itself, then the
 * documents' history, the definition sets published and the catalogue entries changed, each kept
 * where it is written (no copy to keep in step).
 */
const SOURCES = ['event', 'change', 'publish', 'catalogue'] as const;
type Source = (typeof SOURCES)[number];

const SOURCE_OF_KIND: Partial<Record<AuditKind, Source>> = {
  change: 'change',
  publish: 'publish',
  'catalogue-change': 'catalogue',
};

/** A page's end: the last line's instant, source and id. */
interface Cursor {
  at: string;
  source: Source;
  id: string;
}

interface Filter {
  actors: string[];
  actorName?: string;
  documentIds?: string[];
  kind?: AuditKind;
  from?: Date;
  to?: Date;
}

/** Ordered lines of one source: each knows its instant as text and its source-local id. */
type Sourced = AuditLine & { source: Source; localId: string };

/**
 * The audit search: every source read newest first from the page's cursor, the sources' next
 * lines merged, `limit` lines kept. Each source is read through an index on its time column.
 */
export class AuditSearch {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly accounts?: AccountLookup,
  ) {}

  async search(query: AuditQuery): Promise<AuditPage> {
    const limit = Math.min(Math.max(query.limit ?? AUDIT_PAGE_DEFAULT, 1), AUDIT_PAGE_MAX);
    const filter = await this.filterOf(query);
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    const wanted = filter.kind ? [SOURCE_OF_KIND[filter.kind] ?? 'event'] : [...SOURCES];
    // A document's lines are the trail's and its history's only.
    const sources = filter.documentIds
      ? wanted.filter((source) => source === 'event' || source === 'change')
      : wanted;
    const read = await Promise.all(
      sources.map((source) => this.read(source, filter, afterFor(source, cursor), limit + 1)),
    );
    const merged = read.flat().sort(newestFirst);
    const page = merged.slice(0, limit);
    await this.withNumbers(page);
    const last = page.at(-1);
    return {
      items: page.map(({ source: _source, localId: _localId, ...line }) => line),
      ...(merged.length > limit && last
        ? { next: encodeCursor({ at: last.at, source: last.source, id: last.localId }) }
        : {}),
    };
  }

  /** Every line the query finds, page after page (the CSV export), up to `max`. */
  async *all(query: AuditQuery, max: number): AsyncGenerator<AuditLine> {
    let cursor = query.cursor;
    let count = 0;
    for (;;) {
      const page = await this.search({ ...query, limit: AUDIT_PAGE_MAX, cursor });
      for (const line of page.items) {
        if (count++ >= max) return;
        yield line;
      }
      if (!page.next) return;
      cursor = page.next;
    }
  }

  private async filterOf(query: AuditQuery): Promise<Filter> {
    const filter: Filter = { actors: [] };
    const person = query.person?.trim();
    if (person) {
      filter.actors.push(person);
      filter.actorName = person;
      // A login names the account whose id the lines keep.
      if (this.accounts) {
        const account = await findByKey(this.db, this.accounts.type, this.accounts.login, person, {
          includeDeleted: true,
        });
        if (account) filter.actors.push(account.id);
      }
    }
    const document = query.document?.trim();
    if (document) filter.documentIds = await documentIdsNamed(this.db, document);
    if (query.kind !== undefined) {
      if (!AUDIT_KINDS.includes(query.kind))
        throw invalid([
          { path: '/kind', rule: 'enum', params: { values: AUDIT_KINDS.join(', ') } },
        ]);
      filter.kind = query.kind;
    }
    if (query.from) filter.from = instant(query.from, 'from', false);
    if (query.to) filter.to = instant(query.to, 'to', true);
    return filter;
  }

  private read(source: Source, filter: Filter, after: LinesAfter | undefined, limit: number) {
    switch (source) {
      case 'event':
        return this.events(filter, after, limit);
      case 'change':
        return this.changes(filter, after, limit);
      case 'publish':
        return this.publications(filter, after, limit);
      case 'catalogue':
        return this.catalogueChanges(filter, after, limit);
    }
  }

  private async events(filter: Filter, after: LinesAfter | undefined, limit: number) {
    let query = this.db
      .selectFrom('audit_event')
      .select([
        sql<string>`id::text`.as('id'),
        utcMicros('at').as('at'),
        'kind',
        'action',
        'actor',
        'actor_name',
        'document_id',
        'document_type',
        'target',
        'route',
        'screen',
        'address_class',
        'detail',
      ]);
    // The history, the sets and the catalogue's changes are read where they are written.
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    else query = query.where('kind', 'not in', ['change', 'publish', 'catalogue-change']);
    if (filter.documentIds) {
      if (filter.documentIds.length === 0) return [];
      query = query.where('document_id', 'in', filter.documentIds);
    }
    query = query.where(this.actorIs(filter, 'actor', 'actor_name'));
    if (filter.from) query = query.where('at', '>=', filter.from);
    if (filter.to) query = query.where('at', '<', filter.to);
    if (after) query = query.where(linesAfter(after, 'at', 'id'));
    const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row): Sourced => ({
      source: 'event',
      localId: row.id,
      id: `event-${row.id}`,
      at: row.at,
      kind: row.kind as AuditKind,
      action: row.action,
      actor: row.actor,
      actorName: row.actor_name,
      documentId: row.document_id,
      documentType: row.document_type,
      documentNumber: null,
      target: row.target,
      route: row.route,
      screen: row.screen,
      addressClass: row.address_class,
      detail: row.detail,
    }));
  }

  private async changes(filter: Filter, after: LinesAfter | undefined, limit: number) {
    const lines = await historyLinesForAudit(this.db, {
      ...(filter.documentIds ? { documentIds: filter.documentIds } : {}),
      actors: filter.actors,
      ...(filter.actorName ? { actorName: filter.actorName } : {}),
      ...(filter.from ? { from: filter.from } : {}),
      ...(filter.to ? { to: filter.to } : {}),
      ...(after ? { after } : {}),
      limit,
    });
    return lines.map((line): Sourced => ({
      ...NO_REQUEST,
      source: 'change',
      localId: line.id,
      id: `change-${line.id}`,
      at: line.at,
      kind: 'change',
      action: 'document.change',
      actor: line.actor,
      actorName: line.actorName,
      documentId: line.documentId,
      documentType: line.documentType,
      documentNumber: line.documentNumber,
      target: null,
      detail: {
        action: line.action,
        fromStatus: line.fromStatus,
        toStatus: line.toStatus,
        ...(line.onBehalfOfName ? { onBehalfOf: line.onBehalfOfName } : {}),
      },
    }));
  }

  private async publications(filter: Filter, after: LinesAfter | undefined, limit: number) {
    let query = this.db
      .selectFrom('definition_set')
      .select([
        sql<string>`version::text`.as('id'),
        utcMicros('published_at').as('at'),
        'published_by',
        'source',
        'note',
        'digest',
      ])
      .where(this.actorIs(filter, 'published_by', 'published_by'));
    if (filter.from) query = query.where('published_at', '>=', filter.from);
    if (filter.to) query = query.where('published_at', '<', filter.to);
    if (after) query = query.where(linesAfter(after, 'published_at', 'version'));
    const rows = await query
      .orderBy('published_at', 'desc')
      .orderBy('version', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row): Sourced => ({
      ...NO_REQUEST,
      source: 'publish',
      localId: row.id,
      id: `publish-${row.id}`,
      at: row.at,
      kind: 'publish',
      action: `definitions.${row.source}`,
      actor: row.published_by,
      actorName: row.published_by,
      documentId: null,
      documentType: null,
      documentNumber: null,
      target: `definitions:${row.id}`,
      detail: { version: Number(row.id), note: row.note, digest: row.digest },
    }));
  }

  private async catalogueChanges(filter: Filter, after: LinesAfter | undefined, limit: number) {
    let query = this.db
      .selectFrom('catalog_entry_history as h')
      .innerJoin('catalog_entry as e', 'e.id', 'h.entry_id')
      .select([
        sql<string>`h.id::text`.as('id'),
        utcMicros('h.changed_at').as('at'),
        'h.changed_by',
        'h.action',
        'h.version',
        'h.entry_id',
        'e.catalog',
        'e.entry_key',
      ])
      .where(this.actorIs(filter, 'h.changed_by', 'h.changed_by'));
    if (filter.from) query = query.where('h.changed_at', '>=', filter.from);
    if (filter.to) query = query.where('h.changed_at', '<', filter.to);
    if (after) query = query.where(linesAfter(after, 'h.changed_at', 'h.id'));
    const rows = await query
      .orderBy('h.changed_at', 'desc')
      .orderBy('h.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row): Sourced => ({
      ...NO_REQUEST,
      source: 'catalogue',
      localId: row.id,
      id: `catalogue-${row.id}`,
      at: row.at,
      kind: 'catalogue-change',
      action: `catalogue.${row.action}`,
      actor: row.changed_by,
      actorName: row.changed_by,
      documentId: null,
      documentType: null,
      documentNumber: null,
      target: `${row.catalog}:${row.entry_key}`,
      detail: { catalog: row.catalog, entry: row.entry_key, version: row.version },
    }));
  }

  /** Who did it, when a person is asked for: one of the ids, or a piece of the name. */
  private actorIs(filter: Filter, idColumn: string, nameColumn: string) {
    if (!filter.actors.length && !filter.actorName) return sql<SqlBool>`true`;
    const byName = filter.actorName
      ? sql<SqlBool>` or ${sql.ref(nameColumn)} ilike ${likePattern(filter.actorName)}`
      : sql``;
    const byId = filter.actors.length
      ? sql<SqlBool>`${sql.ref(idColumn)} in (${sql.join(filter.actors)})`
      : sql<SqlBool>`false`;
    return sql<SqlBool>`(${byId}${byName})`;
  }

  /** The trail's lines name a document by id: their numbers, read once per page. */
  private async withNumbers(lines: AuditLine[]): Promise<void> {
    const unnumbered = lines.filter((line) => line.documentId && line.documentNumber === null);
    const documents = await auditedDocuments(
      this.db,
      unnumbered.map((line) => line.documentId!),
    );
    for (const line of unnumbered) {
      const document = documents.get(line.documentId!);
      if (document) {
        line.documentNumber = document.number;
        line.documentType ??= document.type;
      }
    }
  }
}

const NO_REQUEST = { route: null, screen: null, addressClass: null } as const;

/** Newest first; at one instant, the sources in their order, then the larger id first. */
function newestFirst(a: Sourced, b: Sourced): number {
  if (a.at !== b.at) return a.at < b.at ? 1 : -1;
  const bySource = SOURCES.indexOf(a.source) - SOURCES.indexOf(b.source);
  if (bySource !== 0) return bySource;
  return BigInt(b.localId) > BigInt(a.localId) ? 1 : BigInt(b.localId) < BigInt(a.localId) ? -1 : 0;
}

/** What a source gives after the cursor: at its instant, the sources after the cursor's all. */
function afterFor(source: Source, cursor: Cursor | undefined): LinesAfter | undefined {
  if (!cursor) return undefined;
  const order = SOURCES.indexOf(source) - SOURCES.indexOf(cursor.source);
  return {
    at: cursor.at,
    sameAt: order > 0 ? 'all' : order < 0 ? 'none' : { idBelow: cursor.id },
  };
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (
      typeof value.at === 'string' &&
      !Number.isNaN(Date.parse(value.at)) &&
      SOURCES.includes(value.source as Source) &&
      typeof value.id === 'string' &&
      /^\d{1,19}$/.test(value.id)
    )
      return value as Cursor;
  } catch {
    // Said below, as any other cursor not ours.
  }
  throw invalid([{ path: '/cursor', rule: 'filterValue', params: { kind: 'cursor' } }]);
}

/** A day (its start; with `endOfDay`, the next day's) or an instant; else a 400. */
function instant(text: string, field: string, endOfDay: boolean): Date {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const at = new Date(day ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(at.getTime()))
    throw invalid([{ path: `/${field}`, rule: 'filterValue', params: { kind: 'date' } }]);
  if (day && endOfDay) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}
