import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type QueryCreator, type Selectable, type Transaction } from 'kysely';
import type { Database, DocumentTable } from '../../db/schema';
import type { DocumentDraft } from '../effect-context';
import { mediaIdsOf } from '../media-references';
import { storeDb, type StoreDatabase } from './tables';

/**
 * The document store: the only code that reads or writes the `document`, `document_version`
 * and `document_history` tables (docs/architecture.md). The command pipeline, the queries, the
 * dashboard, the payment service and the modules reach documents through its functions, so
 * how a document is kept (columns, JSON paths, indexes) is decided here alone.
 */

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

/**
 * The documents of these types with these numbers (an invoice's items), in the order of their
 * ids, locked for the caller's transaction when asked: every transaction locking several takes
 * them in the same order, so two of them waiting on each other cannot happen.
 */
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
}

/**
 * The row a new document starts as, before its first version is written (effects may need its
 * id: an account owns itself). The data is written with version 1, after the effects ran.
 */
export async function insertDocument(
  trx: Transaction<Database>,
  draft: Pick<DocumentDraft, 'type' | 'status' | 'owner' | 'ownerName' | 'ownerEmail'> & {
    ownerMobile: string | null;
  },
  author: VersionAuthor,
  now: Date,
): Promise<DocumentRow> {
  return (await storeDb(trx)
    .insertInto('document')
    .values({
      type: draft.type,
      status: draft.status,
      version: 1,
      owner: draft.owner,
      owner_name: draft.ownerName,
      owner_email: draft.ownerEmail,
      owner_mobile: draft.ownerMobile,
      data: JSON.stringify({}),
      created_by: author.name,
      updated_by: author.name,
      updated_at: now.toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as DocumentRow;
}

/** What a version is written with besides the draft: its history line. */
export interface VersionLine {
  action: string;
  fromStatus: string;
  notes: string | undefined;
  author: VersionAuthor;
  now: Date;
}

/**
 * Writes `draft` as `version` of its document: the row (only if it is still at the version
 * before, so a concurrent change is never overwritten), the uploads it names, the version's
 * copy and the history line, all in the caller's transaction, in one statement (`withVersion`).
 */
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

/**
 * Writes a new document whole as its version 1, with its uploads, version copy and history
 * line, in one statement: for a creation no effect needs the row before it is written (the
 * row `insertDocument` writes first is for those that do). Its id is made here.
 */
export async function insertFirstVersion(
  trx: Transaction<Database>,
  draft: Pick<
    DocumentDraft,
    'type' | 'status' | 'owner' | 'ownerName' | 'ownerEmail' | 'assignee' | 'data'
  > & { ownerMobile: string | null },
  line: VersionLine,
): Promise<DocumentRow> {
  const written = storeDb(trx).with('written', (db) =>
    db
      .insertInto('document')
      .values({
        id: randomUUID(),
        type: draft.type,
        status: draft.status,
        version: 1,
        owner: draft.owner,
        owner_name: draft.ownerName,
        owner_email: draft.ownerEmail,
        owner_mobile: draft.ownerMobile,
        assignee: draft.assignee,
        data: JSON.stringify(draft.data),
        created_by: line.author.name,
        updated_by: line.author.name,
        updated_at: line.now.toISOString(),
      })
      .returningAll(),
  );
  return (await withVersion(written, draft.data, line).executeTakeFirstOrThrow()) as DocumentRow;
}

/**
 * The rest of a version's write, after the row's (`written`, a data-modifying WITH): each part
 * writes only if the row was (`from written`), so a version is one round trip to the database
 * instead of five, and the data is sent once. `document_media` is kept equal to the uploads the
 * data names (media-references.ts). `written` may be many rows (a bulk status move).
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

/** The owner columns of a document, written at once (an account comes to own itself). */
export async function setOwner(
  trx: Transaction<Database>,
  id: string,
  owner: { owner: string; name: string | null; email: string | null; mobile: string | null },
): Promise<void> {
  await storeDb(trx)
    .updateTable('document')
    .set({
      owner: owner.owner,
      owner_name: owner.name,
      owner_email: owner.email,
      owner_mobile: owner.mobile,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * A record written whole, as the document service would write its creation (the document, its
 * first version and a history line `seed`, NEW -> status): the reference data a fresh
 * installation starts with. `owner` undefined: the record is the seed actor's.
 */
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
  const { id, type, status, owner, actor } = record;
  const json = JSON.stringify(record.data);
  await storeDb(trx)
    .insertInto('document')
    .values({
      id,
      type,
      status,
      version: 1,
      owner: owner.owner,
      owner_name: owner.name,
      owner_email: owner.email,
      owner_mobile: owner.mobile,
      data: json,
      created_by: actor,
      updated_by: actor,
    })
    .execute();
  await storeDb(trx)
    .insertInto('document_version')
    .values({
      document_id: id,
      version: 1,
      status,
      action: 'seed',
      data: json as never,
      by: actor,
      assignee: null,
    })
    .execute();
  await storeDb(trx)
    .insertInto('document_history')
    .values({
      document_id: id,
      version: 1,
      action: 'seed',
      from_status: 'NEW',
      to_status: status,
      actor,
      actor_name: actor,
    })
    .execute();
}
