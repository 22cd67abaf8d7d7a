import { sql, type Kysely } from 'kysely';
import { entryKey, systemFieldsOf } from '../../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../../core/definitions/types';
import type { Database } from '../db/schema';
import { toEntry, type CatalogEntry, type EntryRow } from './entries';

/** What an edit or a deletion found: done, or why not. */
export type ChangeOutcome =
  { kind: 'done'; entry?: CatalogEntry } | { kind: 'missing' } | { kind: 'stale'; current: number };

/**
 * Replaces an entry's data and period if it is still at `version` (the one the editor read), in
 * one statement: a concurrent edit makes this one stale rather than lost. The version goes up
 * and the entry remembers who changed it when; the exclusion constraint still refuses a period
 * overlapping another entry of the same key.
 */
export async function updateEntry(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  id: string,
  version: number,
  entry: Record<string, unknown>,
  actor: string,
): Promise<ChangeOutcome> {
  const { startTime, endTime, ...given } = entry;
  // What only the system writes keeps its stored value, whatever the edit sends.
  const system = systemFieldsOf(catalog);
  const data = Object.fromEntries(Object.entries(given).filter(([name]) => !system.includes(name)));
  const kept = system.length
    ? sql<string>`${JSON.stringify(data)}::jsonb || jsonb_strip_nulls(jsonb_build_object(${sql.join(
        system.flatMap((name) => [sql.lit(name), sql`catalog_entry.data -> ${name}`]),
      )}))`
    : JSON.stringify(data);
  const row = (await db
    .updateTable('catalog_entry')
    .set((eb) => ({
      entry_key: entryKey(catalog, data),
      data: kept,
      start_time: String(startTime),
      end_time: endTime ? String(endTime) : null,
      version: eb('version', '+', 1),
      updated_at: new Date(),
      updated_by: actor,
    }))
    .where('catalog', '=', catalog.id)
    .where('id', '=', id)
    .where('version', '=', version)
    .returningAll()
    .executeTakeFirst()) as EntryRow | undefined;
  if (row) return { kind: 'done', entry: toEntry(row) };
  return whyNot(db, catalog, id);
}

/** Deletes an entry if it is still at `version`. */
export async function deleteEntry(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  id: string,
  version: number,
): Promise<ChangeOutcome> {
  const deleted = await db
    .deleteFrom('catalog_entry')
    .where('catalog', '=', catalog.id)
    .where('id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 1) return { kind: 'done' };
  return whyNot(db, catalog, id);
}

async function whyNot(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  id: string,
): Promise<ChangeOutcome> {
  const current = await db
    .selectFrom('catalog_entry')
    .select('version')
    .where('catalog', '=', catalog.id)
    .where('id', '=', id)
    .executeTakeFirst();
  return current ? { kind: 'stale', current: current.version } : { kind: 'missing' };
}
