import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { withVersion } from './rows';
import { storeDb } from './tables';

/** How many documents of `type` are in each status not among `statuses`, by status. */
export async function countOutside(
  db: Kysely<Database>,
  type: string,
  statuses: readonly string[],
): Promise<Array<{ status: string; count: number }>> {
  const rows = await storeDb(db)
    .selectFrom('document')
    .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
    .where('type', '=', type)
    .where('status', 'not in', [...statuses])
    .groupBy('status')
    .orderBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}

/**
 * Moves every document of `type` from `from` to `to`, each as a new version by `actor`; a
 * `previous_status` of `from` (where a cancelled document returns) follows too.
 */
export async function moveStatus(
  trx: Transaction<Database>,
  type: string,
  from: string,
  to: string,
  { action, actor }: { action: string; actor: string },
): Promise<void> {
  const documents = storeDb(trx);
  const written = documents.with('written', (db) =>
    db
      .updateTable('document')
      .set((eb) => ({
        status: to,
        previous_status: from,
        version: eb('version', '+', 1),
        updated_at: sql<string>`now()`,
        updated_by: actor,
      }))
      .where('type', '=', type)
      .where('status', '=', from)
      .returningAll(),
  );
  const author = { subject: actor, name: actor, email: null, mobile: null };
  await withVersion(written, undefined, { action, fromStatus: from, author }).execute();
  await documents
    .updateTable('document')
    .set({ previous_status: to })
    .where('type', '=', type)
    .where('previous_status', '=', from)
    .execute();
}
