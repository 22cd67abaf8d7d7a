import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * Share codes and the check log (docs/status-sharing.md). A code is kept only as an HMAC of its
 * text, under a key made here once per database (share_code_key), so a copy of the table alone
 * tells no code. `failed_checks` and `locked_until` hold the per-code lockout after too many
 * refused checks; a guess never revokes nor changes the code itself.
 * `status_check` is the log of every public check (by share code, by number, by QR): what the
 * holder reads, and the reference the checker may quote. A check naming no document keeps none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('share_code_key')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into share_code_key (id, secret) values (1, ${randomBytes(32).toString('hex')})`.execute(
    db,
  );
  await db.schema
    .createTable('share_code')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('document_id', 'uuid', (c) =>
      c.notNull().references('document.id').onDelete('cascade'),
    )
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('failed_checks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .execute();
  await sql`create index share_code_document on share_code (document_id, created_at)`.execute(db);
  await db.schema
    .createTable('status_check')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // The order checks were logged in, for those logged at the same instant.
    .addColumn('seq', 'bigserial', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('document_type', 'text')
    .addColumn('document_id', 'uuid', (c) => c.references('document.id').onDelete('cascade'))
    .addColumn('share_code_id', 'uuid', (c) => c.references('share_code.id').onDelete('set null'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text')
    .addColumn('address_class', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // The holder's log, newest first; and each code's count of checks.
  await sql`create index status_check_document on status_check (document_id, checked_at desc, seq desc)`.execute(
    db,
  );
  await sql`create index status_check_code on status_check (share_code_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('status_check').execute();
  await db.schema.dropTable('share_code').execute();
  await db.schema.dropTable('share_code_key').execute();
}
