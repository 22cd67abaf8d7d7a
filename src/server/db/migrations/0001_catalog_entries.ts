import { sql, type Kysely } from 'kysely';

/**
 * Catalogue entries of every catalogue in one table. An entry is valid over
 * [start_time, end_time); the exclusion constraint makes PostgreSQL itself refuse two
 * overlapping periods for one key, whatever the application does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists btree_gist`.execute(db);
  await sql`create extension if not exists pg_trgm`.execute(db);
  await db.schema
    .createTable('catalog_entry')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('catalog', 'text', (c) => c.notNull())
    .addColumn('entry_key', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('start_time', 'timestamptz', (c) => c.notNull())
    .addColumn('end_time', 'timestamptz')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addCheckConstraint(
      'catalog_entry_period_ordered',
      sql`end_time is null or end_time > start_time`,
    )
    .execute();
  await sql`alter table catalog_entry add constraint catalog_entry_no_overlap
    exclude using gist (catalog with =, entry_key with =,
      tstzrange(start_time, end_time, '[)') with &&)`.execute(db);
  await db.schema
    .createIndex('catalog_entry_catalog_key')
    .on('catalog_entry')
    .columns(['catalog', 'entry_key', 'start_time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('catalog_entry').execute();
}
