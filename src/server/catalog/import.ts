import { sql, type Kysely, type Transaction } from 'kysely';
import { entryKey, systemFieldsOf } from '../../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../../core/definitions/types';
import type { Database } from '../db/schema';
import type { ValidatorSet } from '../definitions/validators';
import { ApiProblem, ERROR_CODES, type FieldProblem } from '../http/api-error';
import { updateEntry } from './changes';
import { checkEntry } from './checked-entry';
import { insertEntry, isOverlapError, liveEntries, type EntryRow } from './entries';

/** What an import did, or would do: counts of rows, and each refused row's problems. */
export interface ImportOutcome {
  created: number;
  updated: number;
  unchanged: number;
  /** Paths `/entries/{index}/{field}`: the row (0-based, in the order sent) and its field. */
  problems: FieldProblem[];
}

/** A stored entry of one of the imported keys. */
type StoredVersion = Pick<EntryRow, 'id' | 'version' | 'data' | 'end_time'>;

/** Thrown to roll back a dry run, or an import a row refuses, carrying what was found. */
class RolledBack extends Error {
  constructor(readonly outcome: ImportOutcome) {
    super('rolled back');
  }
}

/**
 * Imports rows into a catalogue, all or none (a dry run rolls back): a row updates the entry of
 * its key starting at the same instant, else creates one; an equal row changes nothing.
 */
export async function importEntries(
  db: Kysely<Database>,
  validators: ValidatorSet,
  catalog: CatalogDefinition,
  rows: readonly unknown[],
  actor: string,
  dryRun: boolean,
): Promise<ImportOutcome> {
  try {
    return await db.transaction().execute(async (trx) => {
      const outcome = await importInto(trx, validators, catalog, rows, actor);
      if (dryRun || outcome.problems.length > 0) throw new RolledBack(outcome);
      return outcome;
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.outcome;
    throw error;
  }
}

async function importInto(
  trx: Transaction<Database>,
  validators: ValidatorSet,
  catalog: CatalogDefinition,
  rows: readonly unknown[],
  actor: string,
): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { created: 0, updated: 0, unchanged: 0, problems: [] };
  const refuse = (index: number, problems: FieldProblem[]) =>
    outcome.problems.push(
      ...problems.map((p) => ({ ...p, path: `/entries/${index}${p.path === '/' ? '' : p.path}` })),
    );

  const keys = rows.map((row) => (isObject(row) ? entryKey(catalog, row) : undefined));
  const stored = await storedVersions(trx, catalog, keys);
  // Each row's entry, in file order, with the stored version it replaces.
  const planned: Array<{ index: number; row: unknown; replaces?: StoredVersion }> = [];
  const firstRow = new Set<string>();
  for (const [index, row] of rows.entries()) {
    const start = isObject(row) ? Date.parse(String(row.startTime)) : Number.NaN;
    const key = keys[index];
    if (key === undefined || Number.isNaN(start)) {
      planned.push({ index, row });
      continue;
    }
    const identity = `${key}\u0000${start}`;
    if (firstRow.has(identity)) {
      refuse(index, [{ path: '/startTime', rule: 'importDuplicate' }]);
      continue;
    }
    firstRow.add(identity);
    planned.push({ index, row, replaces: stored.get(identity) });
  }
  // Updates first: a file that ends a period and starts the next writes them in that order.
  const ordered = [...planned.filter((p) => p.replaces), ...planned.filter((p) => !p.replaces)];
  for (const { index, row, replaces } of ordered) {
    const check = await checkEntry(trx, validators, catalog, row);
    if (check.problems) {
      refuse(index, check.problems);
      continue;
    }
    if (replaces && unchanged(catalog, replaces, check.entry)) {
      outcome.unchanged += 1;
      continue;
    }
    const overlaps = await overlapsAnother(trx, async () => {
      if (!replaces) return insertEntry(trx, catalog, check.entry, actor);
      const { id, version } = replaces;
      const done = await updateEntry(trx, catalog, id, version, check.entry, actor);
      // Changed by someone else since it was read, in this very transaction: start again.
      if (done.kind !== 'done') throw new ApiProblem(409, ERROR_CODES.conflict);
    });
    if (overlaps) refuse(index, [{ path: '/startTime', rule: 'overlappingPeriod' }]);
    else if (replaces) outcome.updated += 1;
    else outcome.created += 1;
  }
  outcome.problems.sort((a, b) => rowOf(a) - rowOf(b));
  return outcome;
}

/** Runs a write behind a savepoint: true, with the write undone, when it overlaps another. */
async function overlapsAnother(
  trx: Transaction<Database>,
  write: () => Promise<unknown>,
): Promise<boolean> {
  await sql`savepoint catalog_import_row`.execute(trx);
  try {
    await write();
  } catch (error) {
    await sql`rollback to savepoint catalog_import_row`.execute(trx);
    if (isOverlapError(error)) return true;
    throw error;
  }
  await sql`release savepoint catalog_import_row`.execute(trx);
  return false;
}

/** The stored entries of the given keys, by key and start instant. */
async function storedVersions(
  trx: Transaction<Database>,
  catalog: CatalogDefinition,
  keys: ReadonlyArray<string | undefined>,
): Promise<Map<string, StoredVersion>> {
  const wanted = [...new Set(keys.filter((key): key is string => key !== undefined))];
  const found = new Map<string, StoredVersion>();
  // A few hundred keys per query: 5,000 bound parameters in one statement is asking for trouble.
  for (let at = 0; at < wanted.length; at += 500) {
    const rows = await liveEntries(trx)
      .select(['id', 'version', 'data', 'entry_key', 'start_time', 'end_time'])
      .where('catalog', '=', catalog.id)
      .where('entry_key', 'in', wanted.slice(at, at + 500))
      .execute();
    for (const row of rows)
      found.set(`${row.entry_key}\u0000${new Date(row.start_time).getTime()}`, row);
  }
  return found;
}

/** Whether a checked row says what its stored entry holds (system fields and empty objects aside). */
function unchanged(
  catalog: CatalogDefinition,
  stored: StoredVersion,
  entry: Record<string, unknown>,
): boolean {
  const { startTime: _start, endTime, ...data } = entry;
  const storedEnd = stored.end_time === null ? null : new Date(stored.end_time).getTime();
  const end = endTime ? Date.parse(String(endTime)) : null;
  if (storedEnd !== end) return false;
  const system = systemFieldsOf(catalog);
  return canonical(stored.data, system) === canonical(data, system);
}

/** JSON with sorted keys and without empty objects or the given top-level fields. */
function canonical(data: Record<string, unknown>, leftOut: readonly string[]): string {
  const tidy = (value: unknown): unknown => {
    if (!isObject(value)) return value;
    const kept = Object.keys(value)
      .sort()
      .map((name) => [name, tidy(value[name])] as const)
      .filter(([, inner]) => !(isObject(inner) && Object.keys(inner).length === 0));
    return Object.fromEntries(kept);
  };
  const own = Object.fromEntries(Object.entries(data).filter(([name]) => !leftOut.includes(name)));
  return JSON.stringify(tidy(own));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rowOf(problem: FieldProblem): number {
  return Number(/^\/entries\/(\d+)/.exec(problem.path)?.[1] ?? 0);
}
