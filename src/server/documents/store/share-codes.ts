import { sql } from 'kysely';
import type { Queryable } from './rows';

/** The store of share codes and of the check log (migration 0032; docs/status-sharing.md). */

export interface ShareCodeRow {
  id: string;
  document_type: string;
  document_id: string;
  code_hash: string;
  purpose: string;
  created_by: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  failed_checks: number;
  locked_until: Date | null;
}

export interface StatusCheckRow {
  reference: string;
  method: string;
  purpose: string | null;
  address_class: string;
  result: string;
  checked_at: Date;
}

/** The key codes are hashed under (made by the migration, once per database). */
export async function shareCodeKey(db: Queryable): Promise<string> {
  const row = await db
    .selectFrom('share_code_key')
    .select('secret')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return row.secret;
}

/** A document's codes, newest first, each with its count of checks. */
export async function codesOf(
  db: Queryable,
  documentId: string,
): Promise<Array<ShareCodeRow & { checks: number }>> {
  const rows = await db
    .selectFrom('share_code')
    .selectAll('share_code')
    .select(
      sql<number>`(select count(*) from status_check where status_check.share_code_id = share_code.id)::int`.as(
        'checks',
      ),
    )
    .where('document_id', '=', documentId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows as Array<ShareCodeRow & { checks: number }>;
}

export async function insertCode(
  db: Queryable,
  code: {
    documentType: string;
    documentId: string;
    hash: string;
    purpose: string;
    createdBy: string;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<ShareCodeRow> {
  return (await db
    .insertInto('share_code')
    .values({
      document_type: code.documentType,
      document_id: code.documentId,
      code_hash: code.hash,
      purpose: code.purpose,
      created_by: code.createdBy,
      created_at: code.createdAt.toISOString(),
      expires_at: code.expiresAt.toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as ShareCodeRow;
}

/** Revokes a code of the document (once: a revoked code keeps its first revocation). */
export async function revokeCode(
  db: Queryable,
  documentId: string,
  codeId: string,
  now: Date,
): Promise<ShareCodeRow | undefined> {
  await db
    .updateTable('share_code')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', codeId)
    .where('document_id', '=', documentId)
    .where('revoked_at', 'is', null)
    .execute();
  return (await db
    .selectFrom('share_code')
    .selectAll()
    .where('id', '=', codeId)
    .where('document_id', '=', documentId)
    .executeTakeFirst()) as ShareCodeRow | undefined;
}

/** The code with this hash, locked for the check's transaction. */
export async function codeByHash(db: Queryable, hash: string): Promise<ShareCodeRow | undefined> {
  return (await db
    .selectFrom('share_code')
    .selectAll()
    .where('code_hash', '=', hash)
    .forUpdate()
    .executeTakeFirst()) as ShareCodeRow | undefined;
}

/** Counts one refused check of a code; past `max` the code answers nothing until `lockedUntil`. */
export async function countRefusal(
  db: Queryable,
  codeId: string,
  max: number,
  lockedUntil: Date,
): Promise<void> {
  await db
    .updateTable('share_code')
    .set({
      failed_checks: sql<number>`case when failed_checks + 1 >= ${max} then 0 else failed_checks + 1 end`,
      locked_until: sql<string | null>`case when failed_checks + 1 >= ${max}
        then ${lockedUntil.toISOString()}::timestamptz else locked_until end`,
    })
    .where('id', '=', codeId)
    .execute();
}

/** A check that found the document with the right details starts the count again. */
export async function clearRefusals(db: Queryable, codeId: string): Promise<void> {
  await db
    .updateTable('share_code')
    .set({ failed_checks: 0 })
    .where('id', '=', codeId)
    .where('failed_checks', '>', 0)
    .execute();
}

export async function insertCheck(
  db: Queryable,
  check: {
    reference: string;
    documentType: string | null;
    documentId: string | null;
    shareCodeId: string | null;
    method: string;
    purpose: string | null;
    addressClass: string;
    result: string;
    checkedAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('status_check')
    .values({
      reference: check.reference,
      document_type: check.documentType,
      document_id: check.documentId,
      share_code_id: check.shareCodeId,
      method: check.method,
      purpose: check.purpose,
      address_class: check.addressClass,
      result: check.result,
      checked_at: check.checkedAt.toISOString(),
    })
    .execute();
}

/** The document's check log, newest first (at most `limit` lines). */
export async function checksOf(
  db: Queryable,
  documentId: string,
  limit: number,
): Promise<StatusCheckRow[]> {
  return (await db
    .selectFrom('status_check')
    .select(['reference', 'method', 'purpose', 'address_class', 'result', 'checked_at'])
    .where('document_id', '=', documentId)
    .orderBy('checked_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute()) as StatusCheckRow[];
}

/** The media file's type and content (the holder's photo). */
export async function mediaContent(
  db: Queryable,
  mediaId: string,
): Promise<{ type: string; content: Buffer } | undefined> {
  return db
    .selectFrom('media')
    .select(['type', 'content'])
    .where('id', '=', mediaId)
    .executeTakeFirst();
}
