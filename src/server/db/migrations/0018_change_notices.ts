import { sql, type Kysely } from 'kysely';

/**
 * Tables whose rows server processes keep in memory post a notice on every change, whoever
 * makes it (the API, a seed, someone in psql), so every process forgets what it keeps of them
 * (db/change-notices.ts). The channel is `<schema>:<table>`, so processes working in other
 * schemas of the same database do not hear it; the payload is the changed row's key column,
 * named by the trigger's argument, or empty after a truncate (everything changed). PostgreSQL
 * delivers a notice when the transaction commits, and not at all if it rolls back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function notify_change() returns trigger language plpgsql as $$
    begin
      if TG_LEVEL = 'STATEMENT' then
        perform pg_notify(TG_TABLE_SCHEMA || ':' || TG_TABLE_NAME, '');
      else
        perform pg_notify(
          TG_TABLE_SCHEMA || ':' || TG_TABLE_NAME,
          coalesce(to_jsonb(NEW), to_jsonb(OLD)) ->> TG_ARGV[0]
        );
      end if;
      return null;
    end
  $$`.execute(db);
  // A catalogue's entries, by catalogue: the options of forms, fees, catalogue lists.
  await sql`create trigger catalog_entry_notice after insert or update or delete on catalog_entry
    for each row execute function notify_change('catalog')`.execute(db);
  await sql`create trigger catalog_entry_truncated after truncate on catalog_entry
    for each statement execute function notify_change()`.execute(db);
  // A session signed out: its access tokens are refused by every process.
  await sql`create trigger revoked_session_notice after insert on revoked_session
    for each row execute function notify_change('sid')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists revoked_session_notice on revoked_session`.execute(db);
  await sql`drop trigger if exists catalog_entry_truncated on catalog_entry`.execute(db);
  await sql`drop trigger if exists catalog_entry_notice on catalog_entry`.execute(db);
  await sql`drop function if exists notify_change()`.execute(db);
}
