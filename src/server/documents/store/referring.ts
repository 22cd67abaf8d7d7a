import { referringKey } from '../../db/verification-indexes';
import { DELETED, dataText } from './lists';
import type { Queryable } from './rows';
import { storeDb } from './tables';

/*
 * Documents naming another by the reference they hold in a field (`referencedBy`,
 * docs/workflows.md "Renewals, suspensions and documents naming a document"): each query is
 * answered by the index the declaration makes (db/verification-indexes.ts `referringKeySql`),
 * never by reading every document of the type.
 */

export interface ReferringRow {
  id: string;
  number: string | null;
  status: string;
  submitted_at: Date | string | null;
  updated_at: Date | string;
  /** The text at each of `pointers`, in order. */
  values: Array<string | null>;
}

/** At most this many referring documents are listed; the answer says when there are more. */
export const REFERRING_LIMIT = 200;

/** The submitted documents of `type` (not deleted) whose field at `pointer` names `reference`. */
export async function referringDocuments(
  db: Queryable,
  type: string,
  pointer: string,
  reference: string,
  pointers: readonly string[],
): Promise<ReferringRow[]> {
  const rows = await storeDb(db)
    .selectFrom('document')
    .select(['id', 'number', 'status', 'submitted_at', 'updated_at'])
    .select(pointers.map((p, i) => dataText(p).as(`p${i}`)))
    .where('type', '=', type)
    .where(referringKey(pointer), '=', reference.trim().toUpperCase())
    .where('submitted_at', 'is not', null)
    .where('status', '<>', DELETED)
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .limit(REFERRING_LIMIT + 1)
    .execute();
  return rows.map((row) => {
    const record = row as unknown as Record<string, unknown>;
    return {
      id: row.id,
      number: row.number,
      status: row.status,
      submitted_at: row.submitted_at as Date | string | null,
      updated_at: row.updated_at as Date | string,
      values: pointers.map((_, i) => (record[`p${i}`] as string | null) ?? null),
    };
  });
}

/** The documents of `type` in `statuses` whose field at `pointer` names `reference`. */
export async function referringInStatuses(
  db: Queryable,
  type: string,
  pointer: string,
  reference: string,
  statuses: readonly string[],
): Promise<Array<{ id: string; status: string; version: number }>> {
  if (statuses.length === 0) return [];
  return storeDb(db)
    .selectFrom('document')
    .select(['id', 'status', 'version'])
    .where('type', '=', type)
    .where(referringKey(pointer), '=', reference.trim().toUpperCase())
    .where('status', 'in', [...statuses])
    .orderBy('id')
    .execute();
}
