import { sql, type Kysely } from 'kysely';

/**
 * State that several server processes on one database must share:
 *
 * - `rate_limit_window`: the request counts of @fastify/rate-limit (the public document check),
 *   one row per limited route and client address, so a client meets the same limit whichever
 *   process serves it. A row whose window has ended is restarted by the next request, or
 *   deleted by the periodic purge.
 * - `server_process`: each running process, with the digest of the definition set it loaded and
 *   when it was last seen alive, so a process can tell when others on the same database run
 *   other definitions (during a rolling restart, or a forgotten one).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table rate_limit_window (
    key text primary key,
    hits integer not null,
    expires_at timestamptz not null
  )`.execute(db);
  await sql`create table server_process (
    id text primary key,
    definitions_digest text not null,
    host text not null,
    pid integer not null,
    started_at timestamptz not null default now(),
    seen_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists server_process`.execute(db);
  await sql`drop table if exists rate_limit_window`.execute(db);
}
