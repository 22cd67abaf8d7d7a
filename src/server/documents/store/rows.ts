import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type QueryCreator, type Selectable, type Transaction } from 'kysely';
import type { Database, DocumentTable } from '../../db/schema';
import type { DocumentDraft } from '../effect-context';
import type { DocumentOwner } from '../on-behalf';
import { mediaIdsOf } from '../media-references';
import { storeDb, type StoreDatabase } from './tables';

/** The document store: the only code that reads or writes the document tables. */

/** A row of the document table as selected. */
export type DocumentRow = Selectable<DocumentTable>;

/** The database or a transaction: every store function runs in the caller's transaction. */
export type Queryable = Kysely<Database> | Transaction<Database>;

/** The document of this type with this id, locked for the caller's transaction when asked. */
export async function findDocument(
  db: Queryable,
  type: string,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<DocumentRow | undefined> {
  let query = storeDb(db)
    .selectFrom('document')
    .selectAll()
    .where('id', '=', id)
    .where('type', '=', type);
  if (forUpdate) query = query.forUpdate();
  return (await query.executeTakeFirst()) as DocumentRow | undefined;
}

/** The documents of these types with these numbers, locked in id order when asked (no deadlock). */
export async function findNumbered(
  db: Queryable,
  types: readonly string[],
  numbers: readonly string[],
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<DocumentRow[]> {
  if (types.length === 0 || numbers.length === 0) return [];
  let query = storeDb(db)
    .selectFrom('document')
    .selectAll()
    .where('type', 'in', [...types])
    .where('number', 'in', [...numbers])
    .orderBy('id');
  if (forUpdate) query = query.forUpdate();
  return (await query.execute()) as DocumentRow[];
}

/** A document's status and type by id alone (the payment service knows only the id). */
export async function documentStatus(
  db: Queryable,
  id: string,
): Promise<{ type: string; status: string } | undefined> {
  return storeDb(db)
    .selectFrom('document')
    .select(['type', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A stored document as effects and the pipeline change it (the draft of its next version). */
export function draftOf(row: DocumentRow): DocumentDraft {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    previousStatus: row.previous_status,
    owner: row.owner,
    ownerName: row.owner_name,
    ownerEmail: row.owner_email,
    assignee: row.assignee,
    number: row.number,
    year: row.year,
    serial: row.serial,
    submittedAt: row.submitted_at,
    data: row.data,
  };
}

/** Who writes a version: the actor's name for the row's columns and the history line. */
export interface VersionAuthor {
  subject: string;
  name: string;
  email: string | null;
  mobile: string | null;
  /** The holder a delegate writes for (docs/delegation.md), named on the history line. */
  onBehalfOf?: { subject: string; name: string };
}

type NewDocument = Pick<DocumentDraft, 'type' | 'status'> & DocumentOwner;

/** The columns a new document's row starts with, its version 1. */
function newRow(draft: NewDocument, author: VersionAuthor, now: Date) {
  return {
    type: draft.type,
    status: draft.status,
    version: 1,
    owner: draft.owner,
    owner_name: draft.ownerName,
    owner_email: draft.ownerEmail,
    owner_mobile: draft.ownerMobile,
    created_by: author.name,
    updated_by: author.name,
    updated_at: now.toISOString(),
  };
}

/** A new document's row before effects that need its id run; its data is written after them. */
export async function insertDocument(
  trx: Transaction<Database>,
  draft: NewDocument,
  author: VersionAuthor,
  now: Date,
): Promise<DocumentRow> {
  return (await storeDb(trx)
    .insertInto('document')
    .values({ ...newRow(draft, author, now), data: JSON.stringify({}) })
    .returningAll()
    .executeTakeFirstOrThrow()) as DocumentRow;
}

/** What a version is written with besides the draft: its history line. */
export interface VersionLine {
  action: string;
  fromStatus: string;
  notes?: string;
  author: VersionAuthor;
  now: Date;
}

/** Writes `draft` as `version` only if the row is at `expected` (never over a concurrent write). */
export async function writeVersion(
  trx: Transaction<Database>,
  draft: DocumentDraft,
  {
    version,
    expected,
    ...line
  }: VersionLine & {
    version: number;
    /** The version the row must hold now (the one read, or 1 for a document just inserted). */
    expected: number;
  },
): Promise<DocumentRow | undefined> {
  const written = storeDb(trx).with('written', (db) =>
    db
      .updateTable('document')
      .set({
        status: draft.status,
        owner: draft.owner,
        owner_name: draft.ownerName,
        owner_email: draft.ownerEmail,
        ...(draft.ownerMobile !== undefined ? { owner_mobile: draft.ownerMobile } : {}),
        previous_status: draft.previousStatus,
        version,
        assignee: draft.assignee,
        number: draft.number,
        year: draft.year,
        serial: draft.serial,
        submitted_at: draft.submittedAt ? draft.submittedAt.toISOString() : null,
        data: JSON.stringify(draft.data),
        updated_at: line.now.toISOString(),
        updated_by: line.author.name,
      })
      .where('id', '=', draft.id)
      .where('version', '=', expected)
      .returningAll(),
  );
  return (await withVersion(written, draft.data, line).executeTakeFirst()) as
    DocumentRow | undefined;
}

/** Writes a new document as version 1 in one statement, when no effect needs its row first. */
export async function insertFirstVersion(
  trx: Transaction<Database>,
  draft: NewDocument & Pick<DocumentDraft, 'assignee' | 'data'>,
  line: VersionLine,
  id: string = randomUUID(),
): Promise<DocumentRow> {
  const written = storeDb(trx).with('written', (db) =>
    db
      .insertInto('document')
      .values({
        id,
        ...newRow(draft, line.author, line.now),
        assignee: draft.assignee,
        data: JSON.stringify(draft.data),
      })
      .returningAll(),
  );
  return (await withVersion(written, draft.data, line).executeTakeFirstOrThrow()) as DocumentRow;
}

/**
 * The rest of a version's write after the row's (`written`, a data-modifying WITH): each part
 * writes only if the row was, in one round trip; `document_media` follows the data's uploads.
 */
export function withVersion(
  written: QueryCreator<StoreDatabase & { written: DocumentRow }>,
  /** The new data, whose uploads the document keeps; none when the data is unchanged. */
  data: Record<string, unknown> | undefined,
  { action, fromStatus, notes, author }: Omit<VersionLine, 'now'>,
) {
  const mediaIds = data ? mediaIdsOf(data) : [];
  return written
    .with('unnamed', (db) => {
      let stale = db
        .deleteFrom('document_media')
        .where('document_id', 'in', db.selectFrom('written').select('id'));
      if (!data) stale = stale.where(sql<boolean>`false`);
      else if (mediaIds.length) stale = stale.where('media_id', 'not in', mediaIds);
      return stale.returning('media_id');
    })
    .with('named', (db) =>
      db
        .insertInto('document_media')
        .columns(['document_id', 'media_id'])
        .expression(
          // A row per upload named; none named, no row.
          db
            .selectFrom('written')
            .select([
              'id as document_id',
              sql<string>`unnest(${sql.val(mediaIds)}::uuid[])`.as('media_id'),
            ]),
        )
        .onConflict((c) => c.doNothing())
        .returning('media_id'),
    )
    .with('kept_version', (db) =>
      db
        .insertInto('document_version')
        .columns(['document_id', 'version', 'status', 'action', 'data', 'assignee', 'by'])
        .expression(
          db
            .selectFrom('written')
            .select((eb) => [
              'id',
              'version',
              'status',
              eb.val(action).as('action'),
              'data',
              'assignee',
              eb.val(author.name).as('by'),
            ]),
        )
        .returning('version'),
    )
    .with('history_line', (db) =>
      db
        .insertInto('document_history')
        .columns([
          'document_id',
          'version',
          'action',
          'from_status',
          'to_status',
          'notes',
          'actor',
          'actor_name',
          'actor_email',
          'actor_mobile',
          'on_behalf_of',
          'on_behalf_of_name',
        ])
        .expression(
          db
            .selectFrom('written')
            .select((eb) => [
              'id',
              'version',
              eb.val(action).as('action'),
              eb.val(fromStatus).as('from_status'),
              'status',
              eb.val(notes?.trim() || null).as('notes'),
              eb.val(author.subject).as('actor'),
              eb.val(author.name).as('actor_name'),
              eb.val(author.email).as('actor_email'),
              eb.val(author.mobile).as('actor_mobile'),
              eb.val(author.onBehalfOf?.subject ?? null).as('on_behalf_of'),
              eb.val(author.onBehalfOf?.name ?? null).as('on_behalf_of_name'),
            ]),
        )
        .returning('id'),
    )
    .selectFrom('written')
    .selectAll();
}

/** The versions of a document, newest first. */
export async function listVersions(db: Queryable, id: string) {
  return storeDb(db)
    .selectFrom('document_version')
    .select(['version', 'status', 'action', 'at', 'by'])
    .where('document_id', '=', id)
    .orderBy('version', 'desc')
    .execute();
}

/** One version of a document as it was written. */
export async function findVersion(db: Queryable, id: string, version: number) {
  return storeDb(db)
    .selectFrom('document_version')
    .selectAll()
    .where('document_id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
}

/** A document's history lines, oldest first, each with the assignee its version left. */
export async function listHistory(db: Queryable, id: string) {
  return storeDb(db)
    .selectFrom('document_history as line')
    .leftJoin('document_version as version', (join) =>
      join
        .onRef('version.document_id', '=', 'line.document_id')
        .onRef('version.version', '=', 'line.version'),
    )
    .selectAll('line')
    .select('version.assignee')
    .where('line.document_id', '=', id)
    .orderBy('line.id')
    .execute();
}

/** Reference data a fresh installation starts with, written as version 1 by the action `seed`. */
export async function insertSeededDocument(
  trx: Transaction<Database>,
  record: {
    id: string;
    type: string;
    status: string;
    data: Record<string, unknown>;
    owner: { owner: string; name: string | null; email: string | null; mobile: string | null };
    actor: string;
  },
): Promise<void> {
  const { owner, actor } = record;
  const author = { subject: actor, name: actor, email: null, mobile: null };
  await insertFirstVersion(
    trx,
    {
      ...record,
      owner: owner.owner,
      ownerName: owner.name,
      ownerEmail: owner.email,
      ownerMobile: owner.mobile,
      assignee: null,
    },
    { action: 'seed', fromStatus: 'NEW', author, now: new Date() },
    record.id,
  );
}
