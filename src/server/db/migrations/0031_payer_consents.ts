import { sql, type Kysely } from 'kysely';

/**
 * Paying for others (docs/payments.md, "Paying for others"): the holder of a document whose
 * workflow declares `payerConsent` names another account (`payer`, the token subject) who may
 * put it on their own payment document. One row per consent given; revoking sets `revoked_at`
 * and keeps the row, so that who could pay, and until when, stays known. At most one live
 * consent per document and payer (a partial unique index): naming the same payer twice is one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payer_consent')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('document_id', 'uuid', (c) =>
      c.notNull().references('document.id').onDelete('cascade'),
    )
    .addColumn('payer', 'text', (c) => c.notNull())
    .addColumn('payer_name', 'text', (c) => c.notNull())
    .addColumn('payer_login', 'text')
    .addColumn('granted_by', 'text', (c) => c.notNull())
    .addColumn('granted_by_name', 'text', (c) => c.notNull())
    .addColumn('granted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'text')
    .execute();
  await sql`create unique index payer_consent_live on payer_consent (document_id, payer)
    where revoked_at is null`.execute(db);
  // The payer's list of what they may pay.
  await sql`create index payer_consent_payer on payer_consent (payer) where revoked_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payer_consent').execute();
}
