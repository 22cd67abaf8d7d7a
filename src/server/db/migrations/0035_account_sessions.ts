import { sql, type Kysely } from 'kysely';

/**
 * What the person sees of each of their sign-in sessions on their security page
 * (docs/identity.md, "Sessions"): the device as words, the network's class (never the address),
 * when it signed in, how, and when it was last used. One row per session of the portal, keyed
 * by the `sid` its tokens carry; the session itself stays oidc-provider's (oidc_payload), found
 * by its `uid`, and ending it removes this row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table account_session (
    id uuid primary key,
    sid text not null unique,
    session_uid text not null,
    account_id text not null,
    browser text not null,
    os text not null,
    address_class text not null,
    method text not null,
    signed_in_at timestamptz not null,
    last_used_at timestamptz not null
  )`.execute(db);
  await sql`create index account_session_account on account_session (account_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists account_session`.execute(db);
}
