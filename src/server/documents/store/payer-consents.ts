import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { DELETED } from './lists';
import type { DocumentRow, Queryable, VersionAuthor } from './rows';
import { storeDb } from './tables';

/** The store of payer consents (migration 0031) and the history lines they write. */

export interface PayerConsentRow {
  id: string;
  document_type: string;
  document_id: string;
  payer: string;
  payer_name: string;
  payer_login: string | null;
  granted_by: string;
  granted_by_name: string;
  granted_at: Date;
  revoked_at: Date | null;
  revoked_by: string | null;
}

/** A document's live (unrevoked) consents, oldest first. */
export async function liveConsents(db: Queryable, documentId: string): Promise<PayerConsentRow[]> {
  return (await db
    .selectFrom('payer_consent')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('revoked_at', 'is', null)
    .orderBy('granted_at')
    .orderBy('id')
    .execute()) as PayerConsentRow[];
}

/** Records a consent (the caller holds the document's row lock: no twin can be written). */
export async function insertConsent(
  trx: Transaction<Database>,
  row: DocumentRow,
  payer: { subject: string; name: string; login: string | null },
  author: VersionAuthor,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('payer_consent')
    .values({
      document_type: row.type,
      document_id: row.id,
      payer: payer.subject,
      payer_name: payer.name,
      payer_login: payer.login,
      granted_by: author.subject,
      granted_by_name: author.name,
      granted_at: now.toISOString(),
    })
    .execute();
}

/** Revokes a live consent of the document; false if there is none with that id. */
export async function revokeConsent(
  trx: Transaction<Database>,
  documentId: string,
  consentId: string,
  by: string,
  now: Date,
): Promise<PayerConsentRow | undefined> {
  return (await trx
    .updateTable('payer_consent')
    .set({ revoked_at: now.toISOString(), revoked_by: by })
    .where('id', '=', consentId)
    .where('document_id', '=', documentId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst()) as PayerConsentRow | undefined;
}

/** Of these documents, those naming `payer` in a live consent. */
export async function consentedDocuments(
  db: Queryable,
  payer: string,
  documentIds: readonly string[],
): Promise<Set<string>> {
  if (documentIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('payer_consent')
    .select('document_id')
    .where('payer', '=', payer)
    .where('document_id', 'in', [...documentIds])
    .where('revoked_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.document_id));
}

/** The documents of `types` naming `payer` in a live consent, newest consent first. */
export async function consentedTo(
  db: Queryable,
  payer: string,
  types: readonly string[],
): Promise<Array<{ consent: PayerConsentRow; document: DocumentRow }>> {
  if (types.length === 0) return [];
  const consents = (await db
    .selectFrom('payer_consent')
    .selectAll()
    .where('payer', '=', payer)
    .where('document_type', 'in', [...types])
    .where('revoked_at', 'is', null)
    .orderBy('granted_at', 'desc')
    .limit(500)
    .execute()) as PayerConsentRow[];
  if (consents.length === 0) return [];
  const documents = (await storeDb(db)
    .selectFrom('document')
    .selectAll()
    .where(
      'id',
      'in',
      consents.map((c) => c.document_id),
    )
    .where('status', '<>', DELETED)
    .execute()) as DocumentRow[];
  const byId = new Map(documents.map((d) => [d.id, d]));
  return consents.flatMap((consent) => {
    const document = byId.get(consent.document_id);
    return document ? [{ consent, document }] : [];
  });
}

/** The account of `type` whose holder's e-mail address is `email` (any case), if only one. */
export async function accountByEmail(
  db: Queryable,
  type: string,
  email: string,
): Promise<DocumentRow | undefined> {
  if (email.includes('\u0000')) return undefined;
  const rows = (await storeDb(db)
    .selectFrom('document')
    .selectAll()
    .where('type', '=', type)
    .where('status', '<>', DELETED)
    .where((eb) => eb(eb.fn('lower', ['owner_email']), '=', email.toLowerCase()))
    .limit(2)
    .execute()) as DocumentRow[];
  // Two accounts sharing an address name nobody for sure: the sign-in name must be given.
  return rows.length === 1 ? rows[0] : undefined;
}

/** A line of the document's history for a consent given or revoked; the document is unchanged. */
export async function writeConsentLine(
  trx: Transaction<Database>,
  row: DocumentRow,
  action: string,
  payerName: string,
  author: VersionAuthor,
): Promise<void> {
  await storeDb(trx)
    .insertInto('document_history')
    .values({
      document_id: row.id,
      version: row.version,
      action,
      from_status: row.status,
      to_status: row.status,
      notes: payerName,
      actor: author.subject,
      actor_name: author.name,
      actor_email: author.email,
      actor_mobile: author.mobile,
    })
    .execute();
}
