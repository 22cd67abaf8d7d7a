import type { Queryable } from './rows';
import { storeDb } from './tables';

/**
 * Every document `owner` holds, deleted ones too, oldest first: what their own data archive
 * gathers (account-data/archive.ts), each read afterwards as its holder may read it.
 */
export async function documentsHeldBy(
  db: Queryable,
  owner: string,
): Promise<Array<{ id: string; type: string }>> {
  return storeDb(db)
    .selectFrom('document')
    .select(['id', 'type'])
    .where('owner', '=', owner)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
