import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { DELETED } from './lists';
import type { Queryable } from './rows';
import { storeDb } from './tables';

/** The store of delegations (migration 0033, docs/delegation.md). */

export interface DelegationRow {
  id: string;
  holder: string;
  holder_name: string;
  document_type: string;
  document_id: string | null;
  delegate: string;
  grants: string[];
  /** YYYY-MM-DD, or null. */
  until: string | null;
  created_at: Date;
  revoked_at: Date | null;
  /** The number of the document it covers, if it has one. */
  document_number: string | null;
}

const LIMIT = 500;

function selectDelegations(db: Queryable) {
  return storeDb(db)
    .selectFrom('document_delegation as d')
    .leftJoin('document as doc', 'doc.id', 'd.document_id')
    .select([
      'd.id',
      'd.holder',
      'd.holder_name',
      'd.document_type',
      'd.document_id',
      'd.delegate',
      'd.grants',
      sql<string | null>`to_char(d.until, 'YYYY-MM-DD')`.as('until'),
      'd.created_at',
      'd.revoked_at',
      'doc.number as document_number',
    ]);
}

/** Records a delegation; answers it as read back. */
export async function insertDelegation(
  trx: Transaction<Database>,
  values: {
    holder: string;
    holderName: string;
    type: string;
    documentId: string | null;
    delegate: string;
    grants: string[];
    until: string | null;
    now: Date;
  },
): Promise<DelegationRow> {
  const { id } = await trx
    .insertInto('document_delegation')
    .values({
      holder: values.holder,
      holder_name: values.holderName,
      document_type: values.type,
      document_id: values.documentId,
      delegate: values.delegate,
      grants: JSON.stringify(values.grants),
      until: values.until,
      created_at: values.now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await findDelegation(trx, id))!;
}

export async function findDelegation(
  db: Queryable,
  id: string,
): Promise<DelegationRow | undefined> {
  return (await selectDelegations(db).where('d.id', '=', id).executeTakeFirst()) as
    DelegationRow | undefined;
}

/** Revokes the holder's delegation (once); undefined if the holder has none with that id. */
export async function revokeDelegation(
  trx: Transaction<Database>,
  holder: string,
  type: string,
  id: string,
  now: Date,
): Promise<DelegationRow | undefined> {
  const found = await trx
    .updateTable('document_delegation')
    .set({ revoked_at: sql`coalesce(revoked_at, ${now.toISOString()}::timestamptz)` as never })
    .where('id', '=', id)
    .where('holder', '=', holder)
    .where('document_type', '=', type)
    .returning('id')
    .executeTakeFirst();
  return found ? findDelegation(trx, found.id) : undefined;
}

/** The holder's delegations of a type, newest first. */
export async function holderDelegations(
  db: Queryable,
  holder: string,
  type: string,
): Promise<DelegationRow[]> {
  return (await selectDelegations(db)
    .where('d.holder', '=', holder)
    .where('d.document_type', '=', type)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id')
    .limit(LIMIT)
    .execute()) as DelegationRow[];
}

/** Every delegation, in any state, covering a document: its own and its holder's "all" ones. */
export async function delegationsCovering(
  db: Queryable,
  document: { id: string; type: string; owner: string },
): Promise<DelegationRow[]> {
  return (await selectDelegations(db)
    .where('d.holder', '=', document.owner)
    .where('d.document_type', '=', document.type)
    .where((eb) => eb.or([eb('d.document_id', '=', document.id), eb('d.document_id', 'is', null)]))
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id')
    .limit(LIMIT)
    .execute()) as DelegationRow[];
}

/** The unrevoked delegations naming any of `names` (lowercased), of these types. */
export async function delegationsNaming(
  db: Queryable,
  names: readonly string[],
  types: readonly string[],
): Promise<DelegationRow[]> {
  if (names.length === 0 || types.length === 0) return [];
  return (await selectDelegations(db)
    .where('d.delegate', 'in', [...names])
    .where('d.document_type', 'in', [...types])
    .where('d.revoked_at', 'is', null)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id')
    .limit(LIMIT)
    .execute()) as DelegationRow[];
}

/** The live documents these delegations cover (an "all" one: its holder's of the type), by id. */
export async function coveredDocuments(
  db: Queryable,
  delegations: readonly DelegationRow[],
): Promise<Map<string, { owner: string }>> {
  if (delegations.length === 0) return new Map();
  const rows = await storeDb(db)
    .selectFrom('document')
    .select(['id', 'owner'])
    .where('status', '<>', DELETED)
    .where((eb) =>
      eb.or(
        delegations.map((d) =>
          d.document_id
            ? eb('id', '=', d.document_id)
            : eb.and([eb('owner', '=', d.holder), eb('type', '=', d.document_type)]),
        ),
      ),
    )
    .limit(LIMIT)
    .execute();
  return new Map(rows.map((r) => [r.id, { owner: r.owner }]));
}
