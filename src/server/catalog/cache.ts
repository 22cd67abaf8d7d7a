import type { Kysely } from 'kysely';
import { EVERYTHING, type ChangeNotices } from '../db/change-notices';
import type { Database } from '../db/schema';
import { liveEntries } from './entries';
import {
  catalogsIn,
  entryHas,
  entryHolds,
  toValidEntry,
  type CatalogReader,
  type CatalogSource,
  type ValidEntry,
} from './valid-at';
import { offeredEntries, type OfferedEntry } from './options';
import { DEFAULT_LANGUAGE, type Language } from '../../core/i18n/translate';

/** Entries of one catalogue kept at most (every period); a larger one is read in SQL. */
const MAX_KEPT_ENTRIES = 10_000;

/** One catalogue as kept: every entry of every period, and its options per language. */
interface KeptCatalog {
  entries: readonly ValidEntry[];
  offered?: Partial<Record<Language, readonly OfferedEntry[]>>;
}

/**
 * The catalogues as each process keeps them in memory (every period, frozen: shared), until a
 * change notice names them; while notices are not received, every read goes to the database.
 * A catalogue not kept is read through the caller's connection (`through(trx)`): waiting for
 * another connection inside a transaction could wait for ever.
 */
export class CatalogCache implements CatalogSource {
  private readonly kept = new Map<string, KeptCatalog>();
  /** Bumped by every forgetting, so a read that started before one is not kept. */
  private readonly generations = new Map<string, number>();
  private epoch = 0;

  private constructor(
    private readonly db: Kysely<Database>,
    private readonly notices: ChangeNotices,
  ) {}

  /** A cache following the notices of `catalog_entry`. */
  static async start(db: Kysely<Database>, notices: ChangeNotices): Promise<CatalogCache> {
    const cache = new CatalogCache(db, notices);
    await notices.on('catalog_entry', (catalog) =>
      catalog === EVERYTHING ? cache.forgetAll() : cache.changed(catalog),
    );
    notices.onResume(() => cache.forgetAll());
    return cache;
  }

  /** Forgets a catalogue: this process changed it (the others hear of it by notice). */
  changed(catalog: string): void {
    this.kept.delete(catalog);
    this.generations.set(catalog, (this.generations.get(catalog) ?? 0) + 1);
  }

  private forgetAll(): void {
    this.kept.clear();
    this.epoch++;
  }

  /** The catalogues as kept, what is not kept read through `db` (a transaction's connection). */
  through(db: Kysely<Database>): CatalogReader {
    const sqlReader = catalogsIn(db);
    return {
      validAt: async (catalog, at, keys) => {
        if (keys && keys.length === 0) return [];
        const kept = await this.catalog(catalog, db);
        if (!kept) return sqlReader.validAt(catalog, at, keys);
        const wanted = keys && new Set(keys);
        return kept.entries.filter((e) => entryHolds(e, at) && (!wanted || wanted.has(e.key)));
      },
      validAtWith: async (catalog, at, fields) => {
        const kept = await this.catalog(catalog, db);
        if (!kept) return sqlReader.validAtWith(catalog, at, fields);
        return kept.entries.filter((e) => entryHolds(e, at) && entryHas(e, fields));
      },
      isValidAt: async (catalog, key, at) => {
        const kept = await this.catalog(catalog, db);
        if (!kept) return sqlReader.isValidAt(catalog, key, at);
        return kept.entries.some((e) => e.key === key && entryHolds(e, at));
      },
    };
  }

  /** Every entry of every period as a form's select offers it to a reader of `language`. */
  async offered(
    catalog: string,
    language: Language = DEFAULT_LANGUAGE,
  ): Promise<readonly OfferedEntry[]> {
    const kept = await this.catalog(catalog, this.db);
    if (!kept)
      return offeredEntries(await read(this.db, catalog, Number.POSITIVE_INFINITY), language);
    kept.offered ??= {};
    return (kept.offered[language] ??= offeredEntries(kept.entries, language));
  }

  /** The kept catalogue, read through `db` if it is not kept; undefined when it may not be. */
  private async catalog(catalog: string, db: Kysely<Database>): Promise<KeptCatalog | undefined> {
    if (!this.notices.live) return undefined;
    const kept = this.kept.get(catalog);
    if (kept) return kept;
    const generation = this.generations.get(catalog);
    const epoch = this.epoch;
    const entries = await read(db, catalog, MAX_KEPT_ENTRIES);
    if (entries.length > MAX_KEPT_ENTRIES) return undefined;
    const fresh: KeptCatalog = { entries };
    // A notice during the read may be about a change it did not see: serve, but do not keep.
    if (this.generations.get(catalog) === generation && this.epoch === epoch && this.notices.live)
      this.kept.set(catalog, fresh);
    return fresh;
  }
}

/** Every entry of a catalogue, all periods, in key order (at most `limit` + 1), frozen. */
async function read(db: Kysely<Database>, catalog: string, limit: number): Promise<ValidEntry[]> {
  let query = liveEntries(db)
    .select(['entry_key', 'data', 'start_time', 'end_time'])
    .where('catalog', '=', catalog)
    .orderBy('entry_key')
    .orderBy('start_time');
  if (Number.isFinite(limit)) query = query.limit(limit + 1);
  const rows = await query.execute();
  return rows.map((row) => Object.freeze({ ...toValidEntry(row), data: deepFreeze(row.data) }));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
