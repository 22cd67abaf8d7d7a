import { sql, type Kysely } from 'kysely';

/**
 * Delegated access (docs/delegation.md): a holder names a delegate, as they typed it (a sign-in
 * name or an e-mail address, lowercased), who may read the holder's document (`document_id`), or
 * every document of the type the holder has now or later (`document_id` null), and take the
 * granted actions on it, until `until` (a day, inclusive) or a revoke. Rows are kept once revoked
 * or expired: a former delegate is told the delegation ended rather than that nothing exists.
 * A history line written by a delegate names the holder they acted for (`on_behalf_of`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_delegation')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('holder_name', 'text', (c) => c.notNull())
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('document_id', 'uuid', (c) => c.references('document.id').onDelete('cascade'))
    .addColumn('delegate', 'text', (c) => c.notNull())
    .addColumn('grants', 'jsonb', (c) => c.notNull())
    .addColumn('until', 'date')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  // The holder's list, and the delegate's: by what they were named as.
  await sql`create index document_delegation_holder on document_delegation (holder, document_type)`.execute(
    db,
  );
  await sql`create index document_delegation_delegate on document_delegation (delegate)`.execute(
    db,
  );
  await db.schema.alterTable('document_history').addColumn('on_behalf_of', 'text').execute();
  await db.schema.alterTable('document_history').addColumn('on_behalf_of_name', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('document_history').dropColumn('on_behalf_of_name').execute();
  await db.schema.alterTable('document_history').dropColumn('on_behalf_of').execute();
  await db.schema.dropTable('document_delegation').execute();
}
