import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { storeDb } from './tables';

/** A document as a scan of every document reads it. */
export interface StoredDocument {
  id: string;
  status: string;
  number: string | null;
  data: Record<string, unknown>;
}

/** The documents of a workflow, a batch at a time, in id order (keyset: no offset to skip). */
export async function* documentBatches(
  db: Kysely<Database>,
  type: string,
  batchSize: number,
): AsyncGenerator<StoredDocument[]> {
  let after: string | undefined;
  for (;;) {
    let query = storeDb(db)
      .selectFrom('document')
      .select(['id', 'status', 'number', 'data'])
      .where('type', '=', type)
      .orderBy('id')
      .limit(batchSize);
    if (after !== undefined) query = query.where('id', '>', after);
    const rows = await query.execute();
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]?.id;
  }
}

/** Of these documents, those one of `actions` has ever written (their history says so). */
export async function writtenBy(
  db: Kysely<Database>,
  ids: readonly string[],
  actions: readonly string[],
): Promise<ReadonlySet<string>> {
  if (ids.length === 0 || actions.length === 0) return new Set();
  const found = await storeDb(db)
    .selectFrom('document_history')
    .select('document_id')
    .distinct()
    .where('document_id', 'in', [...ids])
    .where('action', 'in', [...actions])
    .execute();
  return new Set(found.map((row) => row.document_id));
}
