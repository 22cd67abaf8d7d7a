import { sql, type Kysely } from 'kysely';

/**
 * Retention (docs/retention.md): a document erased or anonymised once its period is over keeps its
 * row, number, status and dates, with when and how it was cleared (`retained_at`,
 * `retention_action`): the planner passes it by. Each run is recorded (`retention_run`), the plan's
 * digest with it, beside the audit line of each document it cleared.
 *
 * The action history stays append-only with one exception, retention's: an update that only
 * empties a line's notes and the actor's e-mail and mobile (personal text) is let through; any
 * other change, and every delete, is still refused, so the trail of who did what stays whole.
 */
const ERASABLE = sql.raw(`'notes' - 'actor_email' - 'actor_mobile'`);
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('document').addColumn('retained_at', 'timestamptz').execute();
  await db.schema.alterTable('document').addColumn('retention_action', 'text').execute();
  await db.schema
    .createTable('retention_run')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('held', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index retention_run_started on retention_run (started_at)`.execute(db);
  await sql`create or replace function document_history_append_only() returns trigger
    language plpgsql as $$
    begin
      if tg_op = 'UPDATE'
        and new.notes is null and new.actor_email is null and new.actor_mobile is null
        and (to_jsonb(new) - ${ERASABLE}) = (to_jsonb(old) - ${ERASABLE})
      then
        return new;
      end if;
      raise exception 'document history is append-only';
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function document_history_append_only() returns trigger
    language plpgsql as $$
    begin raise exception 'document history is append-only'; end $$`.execute(db);
  await db.schema.dropTable('retention_run').execute();
  await db.schema.alterTable('document').dropColumn('retention_action').execute();
  await db.schema.alterTable('document').dropColumn('retained_at').execute();
}
