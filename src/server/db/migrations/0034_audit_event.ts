import { sql, type Kysely } from 'kysely';

/**
 * The service's audit trail (docs/audit.md): one row per read of personal data by an officer or
 * administrator, per export, sign-in, session end, retention run... Append-only: a trigger refuses
 * every UPDATE, DELETE and TRUNCATE, whoever asks, the application's own database user included
 * (only a migration that drops the trigger could change a row, and migrations are reviewed code).
 * No foreign key: a row outlives the document, upload or account it names (retention erases
 * those, never the trail of who read them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_event')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('document_id', 'uuid')
    .addColumn('document_type', 'text')
    .addColumn('target', 'text')
    .addColumn('route', 'text')
    .addColumn('screen', 'text')
    .addColumn('address_class', 'text')
    .addColumn('detail', 'jsonb')
    .execute();
  await sql`create index audit_event_at on audit_event (at, id)`.execute(db);
  await sql`create index audit_event_actor on audit_event (actor, at)`.execute(db);
  await sql`create index audit_event_document on audit_event (document_id, at)`.execute(db);
  await sql`create index audit_event_kind on audit_event (kind, at)`.execute(db);
  await sql`
    create function audit_event_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_event is append-only: % refused', tg_op
        using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`
    create trigger audit_event_no_change before update or delete on audit_event
    for each row execute function audit_event_append_only()`.execute(db);
  await sql`
    create trigger audit_event_no_truncate before truncate on audit_event
    for each statement execute function audit_event_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_event').execute();
  await sql`drop function audit_event_append_only()`.execute(db);
}
