import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { withVersion, type VersionAuthor } from './rows';
import { storeDb } from './tables';

/** A document as a data move reads it: enough to move it and name it. */
export interface MovableDocument {
  id: string;
  status: string;
  number: string | null;
  version: number;
  data: Record<string, unknown>;
}

/**
 * The documents of a workflow, a batch at a time in id order; locked for the caller's
 * transaction when `lock` (a publish moving them: no write can slip between read and move).
 */
export async function* movableBatches(
  db: Kysely<Database>,
  type: string,
  { batchSize, lock }: { batchSize: number; lock: boolean },
): AsyncGenerator<MovableDocument[]> {
  let after: string | undefined;
  for (;;) {
    let query = storeDb(db)
      .selectFrom('document')
      .select(['id', 'status', 'number', 'version', 'data'])
      .where('type', '=', type)
      .orderBy('id')
      .limit(batchSize);
    if (after !== undefined) query = query.where('id', '>', after);
    if (lock) query = query.forUpdate();
    const rows = await query.execute();
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]?.id;
  }
}

/** Writes a document's new data as its next version, with a history line saying why. */
export async function writeMovedData(
  trx: Transaction<Database>,
  document: Pick<MovableDocument, 'id' | 'status' | 'version'>,
  data: Record<string, unknown>,
  { action, author }: { action: string; author: VersionAuthor },
): Promise<void> {
  const written = storeDb(trx).with('written', (db) =>
    db
      .updateTable('document')
      .set({
        data: JSON.stringify(data),
        version: document.version + 1,
        updated_at: sql<string>`now()`,
        updated_by: author.name,
      })
      .where('id', '=', document.id)
      .where('version', '=', document.version)
      .returningAll(),
  );
  const row = await withVersion(written, data, {
    action,
    fromStatus: document.status,
    author,
  }).executeTakeFirst();
  if (!row) throw new Error(`document ${document.id} changed while its data was moved`);
}

/** A data move recorded on a document: its version, with the data before and after it. */
export interface RecordedMove {
  id: string;
  status: string;
  current: { version: number; data: Record<string, unknown> };
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/** The documents `actor` moved with `action`, each with its data before and after, locked. */
export async function recordedMoves(
  trx: Transaction<Database>,
  action: string,
  actor: string,
): Promise<RecordedMove[]> {
  const db = storeDb(trx);
  const lines = await db
    .selectFrom('document_history as h')
    .innerJoin('document as d', 'd.id', 'h.document_id')
    .select(['h.document_id as id', 'h.version as moved', 'd.status', 'd.version', 'd.data'])
    .where('h.action', '=', action)
    .where('h.actor', '=', actor)
    .orderBy('h.document_id')
    .forUpdate()
    .execute();
  const moves: RecordedMove[] = [];
  for (const line of lines) {
    const versions = await db
      .selectFrom('document_version')
      .select(['version', 'data'])
      .where('document_id', '=', line.id)
      .where('version', 'in', [line.moved - 1, line.moved])
      .execute();
    const before = versions.find((v) => v.version === line.moved - 1)?.data;
    const after = versions.find((v) => v.version === line.moved)?.data;
    if (!before || !after) continue;
    const current = { version: line.version, data: line.data };
    moves.push({ id: line.id, status: line.status, current, before, after });
  }
  return moves;
}

/** How many documents each of `types` has, those with none left out. */
export async function countByType(
  db: Kysely<Database>,
  types: readonly string[],
): Promise<Array<{ type: string; count: number }>> {
  if (types.length === 0) return [];
  const rows = await storeDb(db)
    .selectFrom('document')
    .select(['type', (eb) => eb.fn.countAll<string>().as('count')])
    .where('type', 'in', [...types])
    .groupBy('type')
    .orderBy('type')
    .execute();
  return rows.map((row) => ({ type: row.type, count: Number(row.count) }));
}
