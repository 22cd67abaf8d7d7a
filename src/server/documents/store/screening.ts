import { sql, type SqlBool } from 'kysely';
import { DELETED, pointerPath } from './lists';
import type { Queryable } from './rows';
import { storeDb } from './tables';

/** What a block entry asks of a workflow's documents to flag them (../screening.ts). */
export interface FlagQuery {
  type: string;
  /** Statuses no longer screened (the machine's final ones). */
  finals: readonly string[];
  /** Data pointer -> the value (trimmed, upper case) the document's must equal, alike. */
  values: ReadonlyArray<{ pointer: string; value: string }>;
  /** The entry: a document it already flagged is not flagged again. */
  entryId: string;
}

/** The submitted documents, not final nor deleted, whose values match and not yet flagged. */
export async function documentsToFlag(db: Queryable, query: FlagQuery): Promise<string[]> {
  const equal = query.values.map(
    ({ pointer, value }) => sql<SqlBool>`upper(btrim(data #>> ${pointerPath(pointer)})) = ${value}`,
  );
  const rows = await storeDb(db)
    .selectFrom('document')
    .select(['id'])
    .where('type', '=', query.type)
    .where('submitted_at', 'is not', null)
    .where('status', 'not in', [DELETED, ...query.finals])
    .where(sql<SqlBool>`${sql.join(equal.length ? equal : [sql`true`], sql` and `)}`)
    .where(
      sql<SqlBool>`not exists (select 1 from screening_hit h where h.document_id = document.id
        and h.entry_id = ${query.entryId} and h.outcome = 'flagged')`,
    )
    .execute();
  return rows.map((row) => row.id);
}
