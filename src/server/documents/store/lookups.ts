import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { UUID } from '../../db/ids';
import { keyExpression } from '../../db/key-indexes';
import { DELETED, dataText, pointerPath } from './lists';
import type { DocumentRow, Queryable } from './rows';
import { storeDb } from './tables';

/** Finding documents by what they hold rather than by id. */

/** The documents of `type` that are not deleted, to select from. */
function live(db: Queryable, type: string) {
  return storeDb(db).selectFrom('document').where('type', '=', type).where('status', '<>', DELETED);
}

/** The document of `type` whose key at `pointer` is `value` in any case (db/key-indexes.ts). */
export async function findByKey(
  db: Queryable,
  type: string,
  pointer: string,
  value: string,
  { includeDeleted = false, except }: { includeDeleted?: boolean; except?: string } = {},
): Promise<DocumentRow | undefined> {
  // PostgreSQL text holds no NUL character, and refuses one compared (from a request's path).
  if (value.includes('\u0000')) return undefined;
  let query = storeDb(db)
    .selectFrom('document')
    .selectAll()
    .where('type', '=', type)
    .where(keyExpression(pointer), '=', value.toLowerCase());
  if (!includeDeleted) query = query.where('status', '<>', DELETED);
  if (except) query = query.where('id', '<>', except);
  return (await query.executeTakeFirst()) as DocumentRow | undefined;
}

/** `findByKey` for many keys, deleted included: the ids by key in lower case. */
export async function idsByKey(
  db: Queryable,
  type: string,
  pointer: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(keys.filter((key) => !key.includes('\u0000')))].map((key) =>
    key.toLowerCase(),
  );
  if (wanted.length === 0) return new Map();
  const expression = keyExpression(pointer);
  const rows = await storeDb(db)
    .selectFrom('document')
    .select(['id', expression.as('key')])
    .where('type', '=', type)
    .where(expression, 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [String(row.key), row.id]));
}

/** The data of the records of `type`, not deleted, whose keys are among `keys` (any case). */
export async function findLiveByKeys(
  db: Queryable,
  type: string,
  pointer: string,
  keys: readonly string[],
): Promise<Array<Record<string, unknown>>> {
  const wanted = keys.filter((key) => !key.includes('\u0000')).map((key) => key.toLowerCase());
  if (wanted.length === 0) return [];
  const rows = await live(db, type)
    .select('data')
    .where(keyExpression(pointer), 'in', wanted)
    .execute();
  return rows.map((row) => row.data);
}

/** The document of `type` a reference names: its number, or the number at `field`. */
export async function findReferenced(
  db: Queryable,
  type: string,
  reference: string,
  field?: string,
  /**
   * `share`: the row is locked until the caller's transaction ends, so an action changing its
   * status (a suspension) waits for a submission naming it, or the submission reads the status
   * that action committed: never a submission accepted on a status already left. `update`: the
   * caller will change it.
   */
  lock?: 'share' | 'update',
): Promise<Pick<DocumentRow, 'id' | 'status' | 'data'> | undefined> {
  const number = reference.trim().toUpperCase();
  if (number.includes('\u0000')) return undefined;
  let query = storeDb(db)
    .selectFrom('document')
    .select(['id', 'status', 'data'])
    .where('type', '=', type);
  query = field ? query.where(dataText(field), '=', number) : query.where('number', '=', number);
  if (lock === 'share') query = query.forShare();
  if (lock === 'update') query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The codes among `codes` that name a document of `type` (its text at `pointer`), not deleted. */
export async function existingKeys(
  db: Queryable,
  type: string,
  pointer: string,
  codes: readonly string[],
): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const code = sql<string>`data #>> ${sql.lit(pointerPath(pointer))}`;
  const rows = await live(db, type)
    .select(code.as('code'))
    .where(code, 'in', [...codes])
    .execute();
  return new Set(rows.map((r) => r.code));
}

/** The data of up to `limit` documents of `type`, not deleted, ordered by the text at `pointer`. */
export async function dataOrderedBy(
  db: Queryable,
  type: string,
  pointer: string,
  limit: number,
): Promise<Array<Record<string, unknown>>> {
  const rows = await live(db, type)
    .select('data')
    .orderBy(sql`data #>> ${sql.lit(pointerPath(pointer))}`)
    .limit(limit)
    .execute();
  return rows.map((row) => row.data);
}

/** Up to `limit` documents of `type`, not deleted, meeting `condition` (SQL). */
export async function liveDocuments(
  db: Queryable,
  type: string,
  condition: RawBuilder<SqlBool> = sql<SqlBool>`true`,
  limit?: number,
): Promise<Array<Pick<DocumentRow, 'id' | 'status' | 'data'>>> {
  let query = live(db, type).select(['id', 'status', 'data']).where(condition);
  if (limit !== undefined) query = query.limit(limit);
  return query.execute();
}

/** The owner's name of each document of `type` among `ids`: the names of the accounts they are. */
export async function ownerNames(
  db: Queryable,
  type: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)].filter((id) => UUID.test(id));
  if (wanted.length === 0) return new Map();
  const rows = await storeDb(db)
    .selectFrom('document')
    .select(['id', 'owner_name'])
    .where('type', '=', type)
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.flatMap((row) => (row.owner_name ? [[row.id, row.owner_name]] : [])));
}

/** Whether `owner` has a document of `type` that is not deleted. */
export async function ownsDocumentOfType(
  db: Queryable,
  type: string,
  owner: string,
): Promise<boolean> {
  const row = await live(db, type).select('id').where('owner', '=', owner).executeTakeFirst();
  return row !== undefined;
}

/** The workflow (type) of each of these documents, by id. */
export async function typesOf(db: Queryable, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await storeDb(db)
    .selectFrom('document')
    .select(['id', 'type'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, row.type]));
}

/** An inbox: `owner`'s latest `limit` documents of `type`, unread first, and the unread count. */
export async function latestOwned(
  db: Queryable,
  type: string,
  owner: string,
  read: string,
  limit: number,
): Promise<{
  rows: Array<Pick<DocumentRow, 'id' | 'status' | 'data' | 'created_at'>>;
  unread: number;
}> {
  const own = live(db, type).where('owner', '=', owner);
  const [rows, count] = await Promise.all([
    own
      .select(['id', 'status', 'data', 'created_at'])
      .orderBy(sql`status = ${read}`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
    own
      .where('status', '<>', read)
      .select((eb) => eb.fn.countAll<string>().as('unread'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, unread: Number(count.unread) };
}

/** The holder's name and contacts each of these documents keeps, with its type. */
export async function holderContacts(
  db: Queryable,
  ids: readonly string[],
): Promise<
  Array<Pick<DocumentRow, 'id' | 'type' | 'owner_name' | 'owner_email' | 'owner_mobile'>>
> {
  const wanted = ids.filter((id) => UUID.test(id));
  if (wanted.length === 0) return [];
  return storeDb(db)
    .selectFrom('document')
    .select(['id', 'type', 'owner_name', 'owner_email', 'owner_mobile'])
    .where('id', 'in', wanted)
    .execute();
}

/** Every live document of `type`, or the one of `id`: its id, version and data. */
export async function liveDocumentData(
  db: Queryable,
  type: string,
  id?: string,
): Promise<Array<{ id: string; version: number; data: unknown }>> {
  let query = live(db, type).select(['id', 'version', 'data']);
  if (id !== undefined) query = query.where('id', '=', id);
  return query.execute();
}

/** The number and type of each of these documents, by id (lists of refunds name them). */
export async function numbersOf(
  db: Queryable,
  ids: readonly string[],
): Promise<Map<string, { number: string | null; type: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await storeDb(db)
    .selectFrom('document')
    .select(['id', 'number', 'type'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, { number: row.number, type: row.type }]));
}
