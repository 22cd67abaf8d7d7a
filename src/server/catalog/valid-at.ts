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

/**
 * The entries of a catalogue valid at time `at` (a fee schedule, the questions of a document,
 * the blocks in force when an application was submitted), optionally only those whose key is
 * one of `keys`. The exclusion constraint guarantees at most one entry per key at any instant,
 * so the result has one entry per key, in key order.
 */
export async function entriesValidAt(
  db: Kysely<Database>,
  catalog: string,
  at: Date,
  keys?: readonly string[],
): Promise<ValidEntry[]> {
  if (keys && keys.length === 0) return [];
  let query = liveEntries(db)
    .select(['entry_key', 'data', 'start_time', 'end_time'])
    .where('catalog', '=', catalog)
    .where(holds(at));
  if (keys) query = query.where('entry_key', 'in', [...keys]);
  const rows = await query.orderBy('entry_key').execute();
  return rows.map(toValidEntry);
}

function toValidEntry(row: {
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

/**
 * The entries of a catalogue valid at time `at` whose data holds every field of `fields` with
 * exactly that value (`data @> fields`, jsonb containment): the fees of one document code that
 * are in force, without reading the rest of the catalogue. Same validity and order as
 * `entriesValidAt`.
 */
export async function entriesValidAtWith(
  db: Kysely<Database>,
  catalog: string,
  at: Date,
  fields: Readonly<Record<string, string | number | boolean>>,
): Promise<ValidEntry[]> {
  const rows = await liveEntries(db)
    .select(['entry_key', 'data', 'start_time', 'end_time'])
    .where('catalog', '=', catalog)
    .where(holds(at))
    .where(sql<boolean>`data @> ${JSON.stringify(fields)}::jsonb`)
    .orderBy('entry_key')
    .execute();
  return rows.map(toValidEntry);
}

/** Whether an entry of `catalog` with this key is valid at `at`. */
export async function isValidAt(
  db: Kysely<Database>,
  catalog: string,
  key: string,
  at: Date,
): Promise<boolean> {
  const found = await liveEntries(db)
    .select('id')
    .where('catalog', '=', catalog)
    .where('entry_key', '=', key)
    .where(holds(at))
    .executeTakeFirst();
  return found !== undefined;
}

/** Field values an entry must hold exactly (`data @> fields`). */
export type EntryFields = Readonly<Record<string, string | number | boolean>>;

/**
 * How the product reads catalogues as they stand at an instant: in SQL (`catalogsIn`), or from
 * the copy each process keeps (catalog/cache.ts). Both answer the same: the entries valid at
 * `at`, one per key, in key order.
 */
export interface CatalogReader {
  validAt(catalog: string, at: Date, keys?: readonly string[]): Promise<ValidEntry[]>;
  validAtWith(catalog: string, at: Date, fields: EntryFields): Promise<ValidEntry[]>;
  isValidAt(catalog: string, key: string, at: Date): Promise<boolean>;
}

/**
 * Catalogues as a process keeps them (catalog/cache.ts), reading what it does not keep yet
 * through `db`: inside a transaction, its own connection.
 */
export interface CatalogSource {
  through(db: Kysely<Database>): CatalogReader;
}

/** The catalogues read in SQL through `db` (a transaction's reads see its own writes). */
export function catalogsIn(db: Kysely<Database>): CatalogReader {
  return {
    validAt: (catalog, at, keys) => entriesValidAt(db, catalog, at, keys),
    validAtWith: (catalog, at, fields) => entriesValidAtWith(db, catalog, at, fields),
    isValidAt: (catalog, key, at) => isValidAt(db, catalog, key, at),
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
