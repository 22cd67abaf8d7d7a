import { sql, type Kysely } from 'kysely';

/**
 * Failed attempts per client address (sign-in, confirmation codes), for the throttle that
 * stops one address trying many accounts (ASVS 5.0 V6.3.1): the failures of the current
 * window, how many times the address was blocked (each block lasts longer) and until when.
 * Accounts' own lockout, its growing wait included, stays with their credentials.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table attempt_throttle (
    key text primary key,
    failures integer not null default 0,
    window_start timestamptz not null,
    blocks integer not null default 0,
    blocked_until timestamptz
  )`.execute(db);
  await sql`alter table credential add column lockouts integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists attempt_throttle`.execute(db);
  await sql`alter table credential drop column if exists lockouts`.execute(db);
}
