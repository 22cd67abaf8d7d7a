import { sql, type Kysely } from 'kysely';

/**
 * The built-in identity server: oidc-provider's stored models (sessions, grants, codes, tokens,
 * interactions) so a restart keeps people signed in, the token signing keys, and credentials.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_payload')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addPrimaryKeyConstraint('oidc_payload_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_payload_grant').on('oidc_payload').column('grant_id').execute();
  await db.schema
    .createIndex('oidc_payload_uid')
    .on('oidc_payload')
    .columns(['model', 'uid'])
    .execute();
  await db.schema
    .createIndex('oidc_payload_user_code')
    .on('oidc_payload')
    .columns(['model', 'user_code'])
    .execute();
  await db.schema
    .createIndex('oidc_payload_expires')
    .on('oidc_payload')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('signing_key')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('private_jwk', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('credential')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('password_hash', 'text')
    .addColumn('password_changed_at', 'timestamptz')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('force_totp', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('force_password_change', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['credential', 'signing_key', 'oidc_payload']) {
    await db.schema.dropTable(table).execute();
  }
}
