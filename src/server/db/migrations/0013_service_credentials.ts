import { sql, type Kysely } from 'kysely';

/**
 * API credentials of service accounts (specification 001, the account's `token`): one per
 * account, its secret kept only as an argon2id hash. The account's id is the OAuth client id,
 * so a client-credentials token names the account as its subject. Revoking keeps the row (who
 * issued it and when stays known) and forgets the hash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table service_credential (
    account_id uuid primary key,
    secret_hash text,
    issued_at timestamptz not null,
    issued_by text not null,
    revoked_at timestamptz,
    revoked_by text
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists service_credential`.execute(db);
}
