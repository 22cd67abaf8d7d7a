import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogEntrySchema } from '../../src/core/definitions/catalog-entry';
import { referencedCatalog, type CatalogDefinition } from '../../src/core/definitions/types';
import { CATALOG_SEED_FILE, seedCatalogs } from '../../src/server/catalog/seed';
import { createAjv } from '../../src/server/definitions/ajv';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

interface StoredEntry {
  id: string;
  entryKey: string;
  data: Record<string, unknown>;
}

/**
 * The starting reference data loaded at every start: every ISO 3166 country, and passenger
 * reference data (documents, sub-documents, fees, questions...) that each catalogue's schema
 * accepts and whose references all name seeded entries. Seeding again adds nothing.
 */
describe.each(databaseKinds())('catalogue seed on %s', (kind) => {
  let api: ApiHarness;
  let catalogs: CatalogDefinition[];
  let seeded: Map<string, StoredEntry[]>;

  const storedEntries = async () => {
    const rows = await api.server.database.db
      .selectFrom('catalog_entry')
      .select(['id', 'catalog', 'entry_key', 'data', 'start_time', 'end_time'])
      .where('created_by', '=', 'seed')
      .execute();
    const byCatalog = new Map<string, StoredEntry[]>();
    for (const row of rows) {
      const entries = byCatalog.get(row.catalog) ?? [];
      entries.push({
        id: row.id,
        entryKey: row.entry_key,
        data: {
          ...row.data,
          startTime: new Date(row.start_time).toISOString(),
          endTime: row.end_time === null ? null : new Date(row.end_time).toISOString(),
        },
      });
      byCatalog.set(row.catalog, entries);
    }
    return byCatalog;
  };

  beforeAll(async () => {
    api = await startApiServer(kind);
    catalogs = api.server.definitions.catalogs;
    seeded = await storedEntries();
  });
  afterAll(async () => api?.close());

  it('seeds every ISO 3166 country with its English name, found through the API', async () => {
    const token = await api.tokenFor(['catalog-read']);
    const search = async (filter: unknown[]) =>
      (
        await api.call('PATCH', '/api/catalog/v1/country', {
          token,
          body: { filter, options: { itemsPerPage: -1 } },
        })
      ).json() as { total: number; items: Array<{ data: { code: string; name: string } }> };
    expect((await search([])).total).toBeGreaterThanOrEqual(249);
    for (const [code, name] of [
      ['NZ', 'New Zealand'],
      ['FR', 'France'],
    ]) {
      const found = await search([{ field: 'code', criterion: 'equals', value: code }]);
      expect(found.items.map((item) => item.data.name)).toEqual([name]);
    }
  });

  it('stores every entry of the seed file, for catalogues that exist', async () => {
    const file = JSON.parse(await fs.readFile(CATALOG_SEED_FILE, 'utf8')) as Record<
      string,
      unknown
    >;
    expect(typeof file.$comment).toBe('string');
    expect(file.$comment).toContain('i18n-iso-countries');
    const ids = new Set(catalogs.map((catalog) => catalog.id));
    for (const [id, entries] of Object.entries(file)) {
      if (id === '$comment') continue;
      expect(ids, `seed file names catalogue ${id}`).toContain(id);
      expect(Array.isArray(entries), id).toBe(true);
      // As many stored as listed: no two entries of the file share a key.
      expect(seeded.get(id)?.length, id).toBe((entries as unknown[]).length);
    }
    expect(file.country, 'countries come from the package').toBeUndefined();
  });

  it("validates every seeded entry against its catalogue's schema", () => {
    const ajv = createAjv();
    for (const catalog of catalogs) {
      const validate = ajv.compile(catalogEntrySchema(catalog));
      for (const entry of seeded.get(catalog.id) ?? []) {
        const valid = validate(entry.data);
        expect(valid ? [] : validate.errors, `${catalog.id} ${JSON.stringify(entry.data)}`).toEqual(
          [],
        );
      }
    }
  });

  it('names a seeded entry of the referenced catalogue in every reference field', () => {
    const keys = new Map(
      [...seeded].map(([id, entries]) => [id, new Set(entries.map((entry) => entry.entryKey))]),
    );
    let checked = 0;
    for (const catalog of catalogs) {
      for (const [field, reference] of Object.entries(catalog.references ?? {})) {
        for (const entry of seeded.get(catalog.id) ?? []) {
          const value = entry.data[field];
          if (value === undefined || value === null || value === '') continue;
          const target = referencedCatalog(reference, entry.data);
          expect(
            keys.get(target)?.has(String(value)),
            `${catalog.id}.${field} = ${String(value)} names no ${target} entry`,
          ).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('adds nothing when seeded again, and only what is missing after a deletion', async () => {
    const db = api.server.database.db;
    expect(await seedCatalogs(db, catalogs)).toBe(0);
    // An administrator's change is kept; a deleted entry comes back.
    const nz = seeded.get('country')?.find((entry) => entry.data.code === 'NZ');
    const fr = seeded.get('country')?.find((entry) => entry.data.code === 'FR');
    if (!nz || !fr) throw new Error('NZ and FR are seeded');
    await db
      .updateTable('catalog_entry')
      .set({ data: JSON.stringify({ code: 'NZ', name: 'Aotearoa New Zealand' }) })
      .where('id', '=', nz.id)
      .execute();
    await db.deleteFrom('catalog_entry').where('id', '=', fr.id).execute();
    expect(await seedCatalogs(db, catalogs)).toBe(1);
    const after = await storedEntries();
    const country = after.get('country') ?? [];
    expect(country.find((entry) => entry.data.code === 'NZ')?.data.name).toBe(
      'Aotearoa New Zealand',
    );
    expect(country.find((entry) => entry.data.code === 'FR')?.data.name).toBe('France');
    expect(country.length).toBe(seeded.get('country')?.length);
  });
});
