import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { storeDb } from './tables';

/** Documents of `type` in `statuses`, counted by assignee (null: unassigned) and status. */
export async function countByAssignee(
  db: Kysely<Database>,
  type: string,
  statuses: readonly string[],
): Promise<Array<{ assignee: string | null; status: string; count: number }>> {
  if (statuses.length === 0) return [];
  const rows = await storeDb(db)
    .selectFrom('document')
    .select(['assignee', 'status', sql<string>`count(*)`.as('count')])
    .where('type', '=', type)
    .where('status', 'in', [...statuses])
    .groupBy(['assignee', 'status'])
    .execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}
