import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { storeDb } from './tables';

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
