import type { Queryable } from './rows';
import { storeDb } from './tables';

/**
 * Of `actions`, those `actor` took on each of these documents, as their history says: one query
 * for a whole page of documents (separation of duties, docs/workflows.md).
 */
export async function actionsTakenBy(
  db: Queryable,
  ids: readonly string[],
  actor: string,
  actions: readonly string[],
): Promise<Map<string, Set<string>>> {
  const taken = new Map<string, Set<string>>();
  if (ids.length === 0 || actions.length === 0) return taken;
  const found = await storeDb(db)
    .selectFrom('document_history')
    .select(['document_id', 'action'])
    .distinct()
    .where('document_id', 'in', [...ids])
    .where('actor', '=', actor)
    .where('action', 'in', [...actions])
    .execute();
  for (const { document_id: id, action } of found) {
    let set = taken.get(id);
    if (!set) taken.set(id, (set = new Set()));
    set.add(action);
  }
  return taken;
}
