import { sql, type Kysely } from 'kysely';

/**
 * The published sets of definitions, every version kept (who, when, why): the server serves the
 * newest (definitions/sets.ts). A set is its files, path -> text, as the checker reads them.
 * Publishing inserts a row; the trigger's notice (channel `<schema>:definition_set`, payload the
 * version) tells every process to switch to it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table definition_set (
    version integer primary key,
    files jsonb not null,
    digest text not null,
    source text not null check (source in ('folder', 'publish', 'restore')),
    note text not null,
    published_by text not null,
    published_at timestamptz not null default now()
  )`.execute(db);
  await sql`create trigger definition_set_notice after insert on definition_set
    for each row execute function notify_change('version')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists definition_set_notice on definition_set`.execute(db);
  await sql`drop table if exists definition_set`.execute(db);
}
