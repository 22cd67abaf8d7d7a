import { sql, type Kysely } from 'kysely';

/**
 * Catalogue entries keep an audit trail and are deleted softly. A deleted entry keeps its row
 * (`deleted_at` set) so that a manager may restore it; the exclusion constraint now judges live
 * entries only, so a deleted period no longer blocks a new one (its restoration then does).
 * Each edit, deletion and restoration leaves a history line: who, when, the version it made and
 * the changed fields with their values before and after.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table catalog_entry add column deleted_at timestamptz`.execute(db);
  await sql`alter table catalog_entry drop constraint catalog_entry_no_overlap`.execute(db);
  await sql`alter table catalog_entry add constraint catalog_entry_no_overlap
    exclude using gist (catalog with =, entry_key with =,
      tstzrange(start_time, end_time, '[)') with &&) where (deleted_at is null)`.execute(db);
  await db.schema
    .createTable('catalog_entry_history')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('entry_id', 'uuid', (c) =>
      c.notNull().references('catalog_entry.id').onDelete('cascade'),
    )
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changes', 'jsonb', (c) => c.notNull())
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addCheckConstraint(
      'catalog_entry_history_action',
      sql`action in ('updated', 'deleted', 'restored')`,
    )
    .execute();
  await db.schema
    .createIndex('catalog_entry_history_entry')
    .on('catalog_entry_history')
    .columns(['entry_id', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('catalog_entry_history').execute();
  await sql`delete from catalog_entry where deleted_at is not null`.execute(db);
  await sql`alter table catalog_entry drop constraint catalog_entry_no_overlap`.execute(db);
  await sql`alter table catalog_entry add constraint catalog_entry_no_overlap
    exclude using gist (catalog with =, entry_key with =,
      tstzrange(start_time, end_time, '[)') with &&)`.execute(db);
  await sql`alter table catalog_entry drop column deleted_at`.execute(db);
}
