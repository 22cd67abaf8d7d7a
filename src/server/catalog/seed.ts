import fs from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { entryKey } from '../../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../../core/definitions/types';
import { PROJECT_ROOT } from '../config';
import type { Database } from '../db/schema';

export const CATALOG_SEED_FILE = path.join(PROJECT_ROOT, 'seeds/catalogs.json');
const SEED_START = '2020-01-01T00:00:00.000Z';

/**
 * Loads the starting reference data (seeds/catalogs.json): for each catalogue, every entry whose
 * key has no entry yet, valid from 2020 with no end. Idempotent; an administrator's later
 * changes (new periods, closed periods) are never overwritten.
 */
export async function seedCatalogs(
  db: Kysely<Database>,
  catalogs: CatalogDefinition[],
  file: string = CATALOG_SEED_FILE,
): Promise<number> {
  const seed = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
  let created = 0;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('catalog-seed'))`.execute(trx);
    for (const catalog of catalogs) {
      const entries = seed[catalog.id];
      if (!Array.isArray(entries)) continue;
      for (const entry of entries as Array<Record<string, unknown>>) {
        const key = entryKey(catalog, entry);
        const exists = await trx
          .selectFrom('catalog_entry')
          .select('id')
          .where('catalog', '=', catalog.id)
          .where('entry_key', '=', key)
          .executeTakeFirst();
        if (exists) continue;
        await trx
          .insertInto('catalog_entry')
          .values({
            catalog: catalog.id,
            entry_key: key,
            data: JSON.stringify(entry),
            start_time: SEED_START,
            end_time: null,
            created_by: 'seed',
            updated_by: 'seed',
          })
          .execute();
        created++;
      }
    }
  });
  return created;
}

/** The entry of a catalogue valid at `at` for a key, or undefined. */
export async function validEntry(
  db: Kysely<Database>,
  catalog: string,
  key: string,
  at: Date = new Date(),
): Promise<Record<string, unknown> | undefined> {
  const row = await db
    .selectFrom('catalog_entry')
    .select('data')
    .where('catalog', '=', catalog)
    .where('entry_key', '=', key)
    .where(sql<boolean>`tstzrange(start_time, end_time, '[)') @> ${at.toISOString()}::timestamptz`)
    .executeTakeFirst();
  return row?.data;
}
