import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * Passkeys and recovery codes (docs/identity.md, "Passkeys and recovery codes").
 * `passkey`: a person's WebAuthn credentials, their public keys only (the private key never
 * leaves the authenticator). `webauthn_challenge`: the challenges handed out, each used once
 * (deleted as it is checked) and only until it expires, so a replayed answer finds none.
 * `recovery_code`: ten codes per account, kept only as an HMAC under a key made here once per
 * database (recovery_code_key), used at most once (`used_at`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkey')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'jsonb')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await sql`create index passkey_account on passkey (account_id, created_at)`.execute(db);
  await db.schema
    .createTable('webauthn_challenge')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text')
    .addColumn('interaction', 'text')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('recovery_code_key')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into recovery_code_key (id, secret) values (1, ${randomBytes(32).toString('hex')})`.execute(
    db,
  );
  await db.schema
    .createTable('recovery_code')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('used_at', 'timestamptz')
    .addPrimaryKeyConstraint('recovery_code_pk', ['account_id', 'code_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('recovery_code').execute();
  await db.schema.dropTable('recovery_code_key').execute();
  await db.schema.dropTable('webauthn_challenge').execute();
  await db.schema.dropTable('passkey').execute();
}
