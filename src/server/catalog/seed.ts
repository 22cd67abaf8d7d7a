import fs from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  entryKey,
  SEED_ACTOR,
  systemFieldsOf,
  translatableFieldsOf,
} from '../../core/definitions/catalog-entry';
import { TRANSLATIONS_FIELD } from '../../core/i18n/localized';
import { referencedCatalogs, type CatalogDefinition } from '../../core/definitions/types';
import { PROJECT_ROOT } from '../config';
import type { Database } from '../db/schema';
import { countrySeedEntries } from './country-seed';

export const CATALOG_SEED_FILE = path.join(PROJECT_ROOT, 'seeds/catalogs.json');
const SEED_START = '2020-01-01T00:00:00.000Z';
/** Rows per insert statement, well under PostgreSQL's 65,535 parameters (7 per row). */
const INSERT_CHUNK = 1000;

type SeedEntry = Record<string, unknown>;

/** Catalogues whose starting entries come from a package too (the file's win on a key). */
const GENERATED_SEEDS: Record<string, () => SeedEntry[]> = {
  country: countrySeedEntries,
};

/** The starting entries of every catalogue: the seed file's, then the generated ones. */
export async function readCatalogSeed(
  file: string = CATALOG_SEED_FILE,
): Promise<Record<string, SeedEntry[]>> {
  const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
  const seed = Object.fromEntries(
    Object.entries(parsed).filter((e): e is [string, SeedEntry[]] => Array.isArray(e[1])),
  );
  for (const [id, generate] of Object.entries(GENERATED_SEEDS))
    seed[id] = [...(seed[id] ?? []), ...generate()];
  return seed;
}

/** The catalogues in an order where each comes after the catalogues its references name. */
export function seedOrder(catalogs: CatalogDefinition[]): CatalogDefinition[] {
  const byId = new Map(catalogs.map((catalog) => [catalog.id, catalog]));
  const seen = new Set<string>();
  const ordered: CatalogDefinition[] = [];
  const visit = (catalog: CatalogDefinition) => {
    if (seen.has(catalog.id)) return;
    seen.add(catalog.id);
    for (const reference of Object.values(catalog.references ?? {})) {
      for (const id of referencedCatalogs(reference)) {
        const referenced = byId.get(id);
        if (referenced) visit(referenced);
      }
    }
    ordered.push(catalog);
  };
  catalogs.forEach(visit);
  return ordered;
}

/**
 * Loads the starting reference data: each entry whose key has no entry yet, valid from 2020.
 * Idempotent; an administrator's changes are never overwritten.
 */
export async function seedCatalogs(
  db: Kysely<Database>,
  catalogs: CatalogDefinition[],
  file: string = CATALOG_SEED_FILE,
): Promise<number> {
  const seed = await readCatalogSeed(file);
  const plan = seedOrder(catalogs).flatMap((catalog) => {
    const entries = seed[catalog.id];
    if (!entries?.length) return [];
    // The first entry of a key wins, as when each entry was inserted after checking its key.
    const byKey = new Map<string, SeedEntry>();
    for (const entry of entries) {
      const key = entryKey(catalog, entry);
      if (!byKey.has(key)) byKey.set(key, entry);
    }
    return [{ catalog, byKey }];
  });
  if (plan.length === 0) return 0;
  const ids = plan.map(({ catalog }) => catalog.id);
  let created = 0;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('catalog-seed'))`.execute(trx);
    const present = await trx
      .selectFrom('catalog_entry')
      .select(['catalog', 'entry_key'])
      .distinct()
      .where('catalog', 'in', ids)
      .execute();
    const existing = new Map(ids.map((id) => [id, new Set<string>()]));
    for (const row of present) existing.get(row.catalog)?.add(row.entry_key);
    for (const { catalog, byKey } of plan) {
      const rows = [...byKey]
        .filter(([key]) => !existing.get(catalog.id)?.has(key))
        .map(([key, entry]) => ({
          catalog: catalog.id,
          entry_key: key,
          data: JSON.stringify(entry),
          start_time: SEED_START,
          end_time: null,
          created_by: SEED_ACTOR,
          updated_by: SEED_ACTOR,
        }));
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        await trx
          .insertInto('catalog_entry')
          .values(rows.slice(start, start + INSERT_CHUNK))
          .execute();
      }
      created += rows.length;
      await fillSystemFields(trx, catalog, byKey);
    }
    await fillTranslations(trx, plan);
  });
  return created;
}

/** Seeded entries lacking a field only the system writes (ISO codes) get it from the seed. */
async function fillSystemFields(
  trx: Transaction<Database>,
  catalog: CatalogDefinition,
  byKey: ReadonlyMap<string, SeedEntry>,
): Promise<void> {
  const system = systemFieldsOf(catalog);
  if (system.length === 0) return;
  const lacking = await trx
    .selectFrom('catalog_entry')
    .select(['id', 'entry_key'])
    .where('catalog', '=', catalog.id)
    .where('created_by', '=', SEED_ACTOR)
    .where(sql<boolean>`not (data ?& ${sql.val(system)}::text[])`)
    .execute();
  for (const row of lacking) {
    const entry = byKey.get(row.entry_key);
    if (!entry) continue;
    const fill = Object.fromEntries(
      system.flatMap((name) => (name in entry ? [[name, entry[name]]] : [])),
    );
    if (Object.keys(fill).length > 0) await addToData(trx, row.id, fill);
  }
}

/** Seeded entries nobody changed and without translations get the seed's translations. */
async function fillTranslations(
  trx: Transaction<Database>,
  plan: ReadonlyArray<{ catalog: CatalogDefinition; byKey: ReadonlyMap<string, SeedEntry> }>,
): Promise<void> {
  const seeded = new Map(
    plan
      .filter(({ catalog }) => translatableFieldsOf(catalog).length > 0)
      .map(({ catalog, byKey }) => [catalog.id, byKey]),
  );
  if (seeded.size === 0) return;
  const lacking = await trx
    .selectFrom('catalog_entry')
    .select(['id', 'catalog', 'entry_key'])
    .where('catalog', 'in', [...seeded.keys()])
    .where('created_by', '=', SEED_ACTOR)
    .where('updated_by', '=', SEED_ACTOR)
    .where(sql<boolean>`not (data ? ${TRANSLATIONS_FIELD})`)
    .execute();
  for (const row of lacking) {
    const translations = seeded.get(row.catalog)?.get(row.entry_key)?.[TRANSLATIONS_FIELD];
    if (typeof translations === 'object' && translations !== null)
      await addToData(trx, row.id, { [TRANSLATIONS_FIELD]: translations });
  }
}

/** Adds fields to an entry's data (`data || fields`). */
async function addToData(trx: Transaction<Database>, id: string, fields: object): Promise<void> {
  await trx
    .updateTable('catalog_entry')
    .set({ data: sql<string>`data || ${JSON.stringify(fields)}::jsonb` })
    .where('id', '=', id)
    .execute();
}
