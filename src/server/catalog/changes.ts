import { sql, type Kysely, type Updateable } from 'kysely';
import {
  changedFields,
  entryKey,
  systemFieldsOf,
  type CatalogHistoryLine,
} from '../../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../../core/definitions/types';
import type { CatalogEntryTable, Database } from '../db/schema';
import { toEntry, type CatalogEntry, type EntryRow } from './entries';

/**
 * The one write path of an existing entry (edit, soft deletion, restoration): only at the
 * version its author read, raising it, with a history line in the same transaction.
 */

/** What a change found: done, or why not. */
export type ChangeOutcome =
  { kind: 'done'; entry?: CatalogEntry } | { kind: 'missing' } | { kind: 'stale'; current: number };

type Change = 'updated' | 'deleted' | 'restored';

/** Replaces an entry's data and period; fields only the system writes keep their value. */
export async function updateEntry(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  id: string,
  version: number,
  entry: Record<string, unknown>,
  actor: string,
): Promise<ChangeOutcome> {
  const { startTime, endTime, ...given } = entry;
  const system = systemFieldsOf(catalog);
  const data = Object.fromEntries(Object.entries(given).filter(([name]) => !system.includes(name)));
  return change(db, catalog, id, version, actor, 'updated', (before) => ({
    entry_key: entryKey(catalog, data),
    data: JSON.stringify({
      ...data,
      ...Object.fromEntries(
        system.flatMap((name) => (before.data[name] == null ? [] : [[name, before.data[name]]])),
      ),
    }),
    start_time: String(startTime),
    end_time: endTime ? String(endTime) : null,
  }));
}

/** Deletes an entry softly (hidden everywhere), or restores it unless it now overlaps (23P01). */
export function setDeleted(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  id: string,
  version: number,
  actor: string,
  deleted: boolean,
): Promise<ChangeOutcome> {
  return change(db, catalog, id, version, actor, deleted ? 'deleted' : 'restored', () => ({
    deleted_at: deleted ? new Date().toISOString() : null,
  }));
}

/** An entry's history, oldest first; undefined when the catalogue has no such entry. */
export async function entryHistory(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  id: string,
): Promise<CatalogHistoryLine[] | undefined> {
  const entry = await db
    .selectFrom('catalog_entry')
    .select('id')
    .where('catalog', '=', catalog.id)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!entry) return undefined;
  const rows = await db
    .selectFrom('catalog_entry_history')
    .select(['version', 'action', 'changes', 'changed_at', 'changed_by'])
    .where('entry_id', '=', id)
    .orderBy('version')
    .execute();
  return rows.map((row) => ({
    version: row.version,
    action: row.action,
    changedAt: new Date(row.changed_at).toISOString(),
    changedBy: row.changed_by,
    changes: row.changes,
  }));
}

/** A catalogue's deleted entries, the latest deleted first (at most `limit`). */
export async function deletedEntries(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  limit: number,
): Promise<CatalogEntry[]> {
  const rows = await db
    .selectFrom('catalog_entry')
    .selectAll()
    .where('catalog', '=', catalog.id)
    .where('deleted_at', 'is not', null)
    .orderBy('deleted_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toEntry);
}

/**
 * Applies one change to the entry if it is at `version` and live (deleted, for a restoration),
 * with its history line. The row is locked while read: a concurrent change then finds it stale.
 */
async function change(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  id: string,
  version: number,
  actor: string,
  action: Change,
  columns: (before: EntryRow) => Updateable<CatalogEntryTable>,
): Promise<ChangeOutcome> {
  const work = async (trx: Kysely<Database>): Promise<ChangeOutcome> => {
    const deleted = action === 'restored';
    const before = await trx
      .selectFrom('catalog_entry')
      .selectAll()
      .where('catalog', '=', catalog.id)
      .where('id', '=', id)
      .where('version', '=', version)
      .where('deleted_at', deleted ? 'is not' : 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (!before) return whyNot(trx, catalog, id, deleted);
    const after = await trx
      .updateTable('catalog_entry')
      .set({
        ...columns(before),
        version: version + 1,
        updated_at: sql<Date>`now()`,
        updated_by: actor,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const entry = toEntry(after);
    await trx
      .insertInto('catalog_entry_history')
      .values({
        entry_id: id,
        version: after.version,
        action,
        changes: JSON.stringify(
          action === 'updated' ? changedFields(toEntry(before).data, entry.data) : [],
        ),
        changed_by: actor,
      })
      .execute();
    return { kind: 'done', entry };
  };
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** Why a change found nothing: no such entry (in that state), or another version. */
async function whyNot(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  id: string,
  deleted: boolean,
): Promise<ChangeOutcome> {
  const current = await db
    .selectFrom('catalog_entry')
    .select('version')
    .where('catalog', '=', catalog.id)
    .where('id', '=', id)
    .where('deleted_at', deleted ? 'is not' : 'is', null)
    .executeTakeFirst();
  return current ? { kind: 'stale', current: current.version } : { kind: 'missing' };
}
