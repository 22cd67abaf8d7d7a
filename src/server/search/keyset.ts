import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { FieldKind } from '../../core/search/criteria';
import { bound, invalid, orderTerm, type SortKey } from './compile-search';
import { UUID } from '../db/ids';
import { isNode } from '../../core/definitions/json';

/**
 * Keyset paging: a page starts after the previous one's last sort values and id, carried as a
 * base64url JSON cursor, validated not signed: a forged one grants nothing, a tampered one is 400.
 */

/** Where a page starts: after the row with these sort values and id. */
export interface Cursor {
  values: CursorValue[];
  id: string;
}

type CursorValue = string | number | boolean | null;

/** What a cursor may weigh: a few sort values, never a body-sized payload. */
const MAX_CURSOR_LENGTH = 4096;
/** A timestamp as PostgreSQL's JSON writes it (ISO 8601, an offset, up to microseconds). */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,6})?(Z|[+-](0\d|1[0-4])(:[0-5]\d)?)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The sort a cursor belongs to, so a cursor of another sort is refused. */
function sortSignature(keys: readonly SortKey[]): string {
  return keys.map((key) => `${key.field}:${key.direction}`).join(',');
}

/** The direction of the id that breaks ties: the last key's, so one index serves the sort. */
export function tieBreakDirection(keys: readonly SortKey[]): 'asc' | 'desc' {
  return keys.at(-1)?.direction ?? 'asc';
}

/** ORDER BY for the sort keys and the id after them, each over the expressions given. */
export function keysetOrder(
  keys: readonly SortKey[],
  expressions: readonly RawBuilder<unknown>[],
  id: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql.join([
    ...keys.map((key, i) => orderTerm(key, expressions[i] ?? key.expression)),
    sql`${id} ${sql.raw(tieBreakDirection(keys))}`,
  ]);
}

/** The cursor of the page after a row, from the row's sort values (as JSON) and id. */
export function encodeCursor(keys: readonly SortKey[], values: unknown[], id: string): string {
  const payload = { s: sortSignature(keys), v: values, id };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** The body's cursor for this sort, or undefined; anything else is a 400 on `/options/cursor`. */
export function decodeCursor(raw: unknown, keys: readonly SortKey[]): Cursor | undefined {
  if (raw === undefined || raw === null) return undefined;
  const refuse = (): never => {
    throw invalid([{ path: '/options/cursor', rule: 'cursor' }]);
  };
  if (typeof raw !== 'string' || raw.length > MAX_CURSOR_LENGTH || !/^[\w-]+$/.test(raw))
    return refuse();
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return refuse();
  }
  if (!isNode(payload)) return refuse();
  const { s, v, id } = payload;
  if (s !== sortSignature(keys) || typeof id !== 'string' || !UUID.test(id)) return refuse();
  if (!Array.isArray(v) || v.length !== keys.length) return refuse();
  const values = v as unknown[];
  keys.forEach((key, i) => {
    if (values[i] === null ? !key.nullable : !validOfKind(values[i], key.kind)) refuse();
  });
  return { values: values as CursorValue[], id };
}

function validOfKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'text':
      // PostgreSQL's text holds no NUL character.
      return typeof value === 'string' && !value.includes('\u0000');
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
    case 'datetime': {
      const parts =
        typeof value === 'string' ? (kind === 'date' ? DATE : TIMESTAMP).exec(value) : null;
      return !!parts && realDay(parts[1], parts[2], parts[3]);
    }
  }
}

/** A day of the calendar (no 31 February, no year zero), as PostgreSQL would accept it. */
function realDay(year?: string, month?: string, day?: string): boolean {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * The rows after the cursor's row in `keysetOrder`: one row comparison when every key is NOT NULL
 * and goes the id's way (a btree's scan start); else key by key, equal before and beyond here.
 */
export function afterCursor(
  keys: readonly SortKey[],
  cursor: Cursor,
  id: RawBuilder<unknown>,
): RawBuilder<SqlBool> {
  const idDirection = tieBreakDirection(keys);
  const idValue = sql`cast(${cursor.id} as uuid)`;
  const plain = keys.every((key) => !key.nullable && key.direction === idDirection);
  if (plain) {
    const left = sql.join([...keys.map((key) => key.expression), id]);
    const right = sql.join([
      ...keys.map((key, i) => bound(cursor.values[i] ?? null, key.kind)),
      idValue,
    ]);
    return sql<SqlBool>`((${left}) ${sql.raw(idDirection === 'desc' ? '<' : '>')} (${right}))`;
  }
  const terms: RawBuilder<SqlBool>[] = [];
  const equalSoFar: RawBuilder<SqlBool>[] = [];
  keys.forEach((key, i) => {
    const value = cursor.values[i] ?? null;
    const beyond = beyondValue(key, value);
    if (beyond) terms.push(sql.join([...equalSoFar, beyond], sql` and `) as RawBuilder<SqlBool>);
    equalSoFar.push(
      value === null
        ? sql<SqlBool>`${key.expression} is null`
        : sql<SqlBool>`${key.expression} = ${bound(value, key.kind)}`,
    );
  });
  const idBeyond = sql<SqlBool>`${id} ${sql.raw(idDirection === 'desc' ? '<' : '>')} ${idValue}`;
  terms.push(sql.join([...equalSoFar, idBeyond], sql` and `) as RawBuilder<SqlBool>);
  return sql<SqlBool>`((${sql.join(terms, sql`) or (`)}))`;
}

/** The rows beyond `value` on one key, or undefined when none can be (the last of nulls). */
function beyondValue(key: SortKey, value: CursorValue): RawBuilder<SqlBool> | undefined {
  const e = key.expression;
  if (value === null) {
    // Nulls come first ascending (every value is beyond them) and last descending (none is).
    return key.direction === 'asc' ? sql<SqlBool>`${e} is not null` : undefined;
  }
  const limit = bound(value, key.kind);
  if (key.direction === 'asc') return sql<SqlBool>`${e} > ${limit}`;
  return key.nullable
    ? sql<SqlBool>`(${e} < ${limit} or ${e} is null)`
    : sql<SqlBool>`${e} < ${limit}`;
}
