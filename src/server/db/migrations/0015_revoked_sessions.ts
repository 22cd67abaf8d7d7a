import { sql, type Kysely } from 'kysely';

/**
 * Sessions ended by signing out, by the `sid` their access tokens carry: such a token is
 * refused from then on, though it has not expired (ASVS 5.0 V7.4.1). A row is kept as long as
 * a token of the session could still be within its lifetime, then purged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table revoked_session (
    sid text primary key,
    revoked_at timestamptz not null default now(),
    expires_at timestamptz not null
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists revoked_session`.execute(db);
}
