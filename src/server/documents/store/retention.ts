import { sql, type RawBuilder } from 'kysely';
import type { RetentionCandidate } from '../../../core/retention/plan';
import type { Queryable } from './rows';
import { storeDb } from './tables';

/**
 * The store's part of retention (docs/retention.md): the closed documents not yet cleared, what
 * holds them in the document tables, and the clearing itself, in the caller's transaction.
 */

/** The documents of `type` in one of `statuses` (among `ids` if given) not cleared yet. */
export async function retentionCandidates(
  db: Queryable,
  type: string,
  statuses: readonly string[],
  ids?: readonly string[],
): Promise<RetentionCandidate[]> {
  if (statuses.length === 0 || ids?.length === 0) return [];
  let query = storeDb(db)
    .selectFrom('document')
    .select((eb) => [
      'document.id',
      'document.type',
      'document.number',
      'document.status',
      'document.data',
      'document.flags',
      'document.updated_at',
      eb
        .selectFrom('document_history')
        .select((h) => h.fn.max('document_history.at').as('at'))
        .whereRef('document_history.document_id', '=', 'document.id')
        .whereRef('document_history.to_status', '=', 'document.status')
        .as('entered_at'),
    ])
    .where('document.type', '=', type)
    .where('document.status', 'in', [...statuses])
    .where('document.retained_at', 'is', null)
    .orderBy('document.id');
  if (ids) query = query.where('document.id', 'in', [...ids]);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const uploads = await uploadsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    number: row.number,
    status: row.status,
    data: row.data,
    flags: row.flags ?? [],
    enteredAt: row.entered_at ? new Date(row.entered_at) : new Date(row.updated_at),
    uploads: uploads.get(row.id) ?? [],
  }));
}

/** The uploads each document names: in its data, or as the answer to one of its requests. */
async function uploadsOf(db: Queryable, ids: readonly string[]): Promise<Map<string, string[]>> {
  const named = await storeDb(db)
    .selectFrom('document_media')
    .select(['document_id', 'media_id'])
    .where('document_id', 'in', [...ids])
    .union(
      storeDb(db)
        .selectFrom('document_request')
        .select(['document_id', sql<string>`media_id`.as('media_id')])
        .where('document_id', 'in', [...ids])
        .where('media_id', 'is not', null),
    )
    .execute();
  const byDocument = new Map<string, string[]>();
  for (const row of named) {
    const list = byDocument.get(row.document_id) ?? [];
    if (!list.includes(row.media_id)) list.push(row.media_id);
    byDocument.set(row.document_id, list);
  }
  return byDocument;
}

/** The documents among `ids` with a request for information still open. */
export async function withOpenRequests(
  db: Queryable,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await storeDb(db)
    .selectFrom('document_request')
    .select('document_id')
    .distinct()
    .where('document_id', 'in', [...ids])
    .where('closed_at', 'is', null)
    .execute();
  return new Set(rows.map((row) => row.document_id));
}

/** The document, locked, if retention has not cleared it yet. */
export async function lockUncleared(db: Queryable, type: string, id: string) {
  return storeDb(db)
    .selectFrom('document')
    .select(['id', 'status', 'flags', 'retained_at'])
    .where('id', '=', id)
    .where('type', '=', type)
    .where('retained_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** `column #- '{a,b}'` for each pointer: the fields gone, everything else as it was. */
function without(column: string, pointers: readonly string[]): RawBuilder<string> {
  let expression: RawBuilder<unknown> = sql.ref(column);
  for (const pointer of pointers) {
    const path = `{${pointer.split('/').slice(1).join(',')}}`;
    expression = sql`(${expression} #- cast(${path} as text[]))`;
  }
  return expression as RawBuilder<string>;
}

export interface Clearing {
  id: string;
  /** The declared personal pointers: cleared in the data and in every version. */
  personal: readonly string[];
  /** The uploads to delete: unlinked from the document, the file deleted when nothing else names it. */
  uploads: readonly string[];
  action: 'erase' | 'anonymise';
  at: Date;
}

/**
 * Clears a document as retention does, in the caller's transaction (the document locked by
 * `lockUncleared`): the personal fields in its data and every version, the holder's contact
 * details, the notes of its history and its case notes, the answers to its requests, and the
 * uploads given; its id, type, number, status, dates, flags and the history's actions stay.
 */
export async function clearDocument(db: Queryable, clearing: Clearing): Promise<void> {
  const store = storeDb(db);
  const { id, personal, uploads } = clearing;
  await store
    .updateTable('document')
    .set({
      data: without('data', personal),
      owner_name: null,
      owner_email: null,
      owner_mobile: null,
      retained_at: clearing.at.toISOString(),
      retention_action: clearing.action,
    })
    .where('id', '=', id)
    .execute();
  if (personal.length)
    await sql`update document_version set data = ${without('data', personal)} where document_id = ${id}`.execute(
      db,
    );
  await store
    .updateTable('document_history')
    .set({ notes: null, actor_email: null, actor_mobile: null })
    .where('document_id', '=', id)
    .execute();
  const notes = store.selectFrom('document_case_note').select('id').where('document_id', '=', id);
  await store.deleteFrom('document_case_note_edit').where('note_id', 'in', notes).execute();
  await store.deleteFrom('document_case_note').where('document_id', '=', id).execute();
  await store
    .updateTable('document_request')
    .set({ answer: null, ...(uploads.length ? { media_id: null } : {}) })
    .where('document_id', '=', id)
    .execute();
  if (uploads.length === 0) return;
  await store
    .deleteFrom('document_media')
    .where('document_id', '=', id)
    .where('media_id', 'in', [...uploads])
    .execute();
  // An upload another document still names (a copy, a renewal) is that document's too: it stays.
  await store
    .deleteFrom('media')
    .where('id', 'in', [...uploads])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('document_media')
            .select('document_media.media_id')
            .whereRef('document_media.media_id', '=', 'media.id'),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('document_request')
            .select('document_request.media_id')
            .whereRef('document_request.media_id', '=', 'media.id'),
        ),
      ),
    )
    .execute();
}
