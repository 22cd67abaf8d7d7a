import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { storeDb } from './tables';

/** An item of a request round as stored (document_request), with its answer's file if any. */
export interface RequestRow {
  id: string;
  round: number;
  position: number;
  status: string;
  question: string | null;
  opened_at: Date;
  catalog: string | null;
  code: string | null;
  label: Record<string, string>;
  kind: string;
  mandatory: boolean;
  due: string;
  answer: string | null;
  media_id: string | null;
  media_name: string | null;
  media_size: number | null;
  media_type: string | null;
  answered_at: Date | null;
  answered_by: string | null;
  closed_at: Date | null;
}

/** The items of a document's latest round, in the order asked (none: no round yet). */
export async function latestRound(
  db: Kysely<Database> | Transaction<Database>,
  documentId: string,
  forUpdate = false,
): Promise<RequestRow[]> {
  const store = storeDb(db as Kysely<Database>);
  let query = store
    .selectFrom('document_request as r')
    .leftJoin('media as m', 'm.id', 'r.media_id')
    .select([
      'r.id',
      'r.round',
      'r.position',
      'r.status',
      'r.question',
      'r.opened_at',
      'r.catalog',
      'r.code',
      'r.label',
      'r.kind',
      'r.mandatory',
      // A date has no time zone: read as written, never shifted by the driver.
      sql<string>`to_char(r.due, 'YYYY-MM-DD')`.as('due'),
      'r.answer',
      'r.media_id',
      'm.name as media_name',
      'm.size as media_size',
      'm.type as media_type',
      'r.answered_at',
      'r.answered_by',
      'r.closed_at',
    ])
    .where('r.document_id', '=', documentId)
    .where(
      'r.round',
      '=',
      store
        .selectFrom('document_request')
        .select(sql<number>`max(round)`.as('round'))
        .where('document_id', '=', documentId),
    )
    .orderBy('r.position');
  if (forUpdate) query = query.forUpdate('r');
  return (await query.execute()) as RequestRow[];
}

/** A new item, as an opening action asks for it. */
export interface NewRequestItem {
  catalog: string | null;
  code: string | null;
  label: Record<string, string>;
  kind: string;
  mandatory: boolean;
  due: string;
}

/** Writes a new round of items (the round after the latest), closing any still open. */
export async function insertRound(
  trx: Transaction<Database>,
  documentId: string,
  round: { status: string; question: string | null; at: Date; by: string },
  items: readonly NewRequestItem[],
): Promise<void> {
  const store = storeDb(trx);
  await store
    .updateTable('document_request')
    .set({ closed_at: round.at })
    .where('document_id', '=', documentId)
    .where('closed_at', 'is', null)
    .execute();
  const last = await store
    .selectFrom('document_request')
    .select(sql<number | null>`max(round)`.as('round'))
    .where('document_id', '=', documentId)
    .executeTakeFirst();
  const number = (last?.round ?? 0) + 1;
  if (items.length === 0) return;
  await store
    .insertInto('document_request')
    .values(
      items.map((item, position) => ({
        document_id: documentId,
        round: number,
        position,
        status: round.status,
        question: round.question,
        opened_at: round.at,
        opened_by: round.by,
        catalog: item.catalog,
        code: item.code,
        label: JSON.stringify(item.label),
        kind: item.kind,
        mandatory: item.mandatory,
        due: item.due,
      })),
    )
    .execute();
}

/** Keeps an item's answer: its text and file, when and by whom. */
export async function saveAnswer(
  trx: Transaction<Database>,
  id: string,
  answer: { text: string | null; media: string | null; at: Date; by: string },
): Promise<void> {
  await storeDb(trx)
    .updateTable('document_request')
    .set({
      answer: answer.text,
      media_id: answer.media,
      answered_at: answer.at,
      answered_by: answer.by,
    })
    .where('id', '=', id)
    .execute();
}

/** Closes a round: its answers are final. */
export async function closeRound(
  trx: Transaction<Database>,
  documentId: string,
  round: number,
  at: Date,
): Promise<void> {
  await storeDb(trx)
    .updateTable('document_request')
    .set({ closed_at: at })
    .where('document_id', '=', documentId)
    .where('round', '=', round)
    .execute();
}

/** The uploads owned by `owner` among `ids` (an answer names only the owner's own files). */
export async function ownedMedia(
  db: Transaction<Database>,
  owner: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('media')
    .select('id')
    .where('id', 'in', [...ids])
    .where('owner', '=', owner)
    .execute();
  return new Set(rows.map((row) => row.id));
}
