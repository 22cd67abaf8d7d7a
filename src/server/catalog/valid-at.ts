import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { liveEntries } from './entries';

/** An entry as the rest of the product reads it: its key, data and validity period. */
export interface ValidEntry {
  key: string;
  data: Record<string, unknown>;
  startTime: Date;
  endTime: Date | null;
}

/** The SQL condition "the entry's period [start_time, end_time) holds `at`". */
function holds(at: Date) {
  return sql<boolean>`tstzrange(start_time, end_time, '[)') @> ${at.toISOString()}::timestamptz`;
}

/** The entries of a catalogue valid at `at`: one per key (the exclusion constraint), in key order. */
function validRows(db: Kysely<Database>, catalog: string, at: Date) {
  return liveEntries(db)
    .select(['entry_key', 'data', 'start_time', 'end_time'])
    .where('catalog', '=', catalog)
    .where(holds(at))
    .orderBy('entry_key');
}

/** The entries of a catalogue valid at `at`, optionally only those of `keys`. */
export async function entriesValidAt(
  db: Kysely<Database>,
  catalog: string,
  at: Date,
  keys?: readonly string[],
): Promise<ValidEntry[]> {
  if (keys && keys.length === 0) return [];
  let query = validRows(db, catalog, at);
  if (keys) query = query.where('entry_key', 'in', [...keys]);
  return (await query.execute()).map(toValidEntry);
}

export function toValidEntry(row: {
  entry_key: string;
  data: Record<string, unknown>;
  start_time: Date | string;
  end_time: Date | string | null;
}): ValidEntry {
  return {
    key: row.entry_key,
    data: row.data,
    startTime: new Date(row.start_time),
    endTime: row.end_time === null ? null : new Date(row.end_time),
  };
}

/** The entries of a catalogue valid at `at` whose data holds every field of `fields` exactly. */
export async function entriesValidAtWith(
  db: Kysely<Database>,
  catalog: string,
  at: Date,
  fields: EntryFields,
): Promise<ValidEntry[]> {
  const rows = await validRows(db, catalog, at)
    .where(sql<boolean>`data @> ${JSON.stringify(fields)}::jsonb`)
    .execute();
  return rows.map(toValidEntry);
}

/** The data of the entry of `catalog` with this key valid at `at`, or undefined. */
export async function validEntry(
  db: Kysely<Database>,
  catalog: string,
  key: string,
  at: Date = new Date(),
): Promise<Record<string, unknown> | undefined> {
  return (await entriesValidAt(db, catalog, at, [key]))[0]?.data;
}

/** Field values an entry must hold exactly (`data @> fields`). */
export type EntryFields = Readonly<Record<string, string | number | boolean>>;

/** How catalogues are read at an instant: in SQL (`catalogsIn`) or as kept (cache.ts), alike. */
export interface CatalogReader {
  validAt(catalog: string, at: Date, keys?: readonly string[]): Promise<ValidEntry[]>;
  validAtWith(catalog: string, at: Date, fields: EntryFields): Promise<ValidEntry[]>;
  isValidAt(catalog: string, key: string, at: Date): Promise<boolean>;
}

/** Catalogues as a process keeps them, reading what it does not keep through `db`. */
export interface CatalogSource {
  through(db: Kysely<Database>): CatalogReader;
}

/** The catalogues read in SQL through `db` (a transaction's reads see its own writes). */
export function catalogsIn(db: Kysely<Database>): CatalogReader {
  return {
    validAt: (catalog, at, keys) => entriesValidAt(db, catalog, at, keys),
    validAtWith: (catalog, at, fields) => entriesValidAtWith(db, catalog, at, fields),
    isValidAt: async (catalog, key, at) => (await validEntry(db, catalog, key, at)) !== undefined,
  };
}

/** Whether an entry's period [start, end) holds `at` (as `holds` says it in SQL). */
export function entryHolds(entry: Pick<ValidEntry, 'startTime' | 'endTime'>, at: Date): boolean {
  const time = at.getTime();
  return (
    entry.startTime.getTime() <= time && (entry.endTime === null || time < entry.endTime.getTime())
  );
}

/** Whether an entry's data holds every field with exactly that value (`data @> fields`). */
export function entryHas(entry: Pick<ValidEntry, 'data'>, fields: EntryFields): boolean {
  return Object.entries(fields).every(([field, value]) => entry.data[field] === value);
}
