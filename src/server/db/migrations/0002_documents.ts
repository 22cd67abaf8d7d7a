import { sql, type Kysely } from 'kysely';

/**
 * One table family for every document type: the current document (data as jsonb, the fields
 * lists filter on as indexed columns), every version, the append-only action history, the
 * gap-free number sequences, the outbox of notifications, and uploaded media.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('previous_status', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('owner_name', 'text')
    .addColumn('owner_email', 'text')
    .addColumn('owner_mobile', 'text')
    .addColumn('assignee', 'text')
    .addColumn('number', 'text')
    .addColumn('year', 'integer')
    .addColumn('serial', 'integer')
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .execute();
  // Indexes behind the list filters: status queues, my documents, my assignments, numbers, dates.
  await db.schema
    .createIndex('document_type_status')
    .on('document')
    .columns(['type', 'status', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('document_type_owner')
    .on('document')
    .columns(['type', 'owner', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('document_type_assignee')
    .on('document')
    .columns(['type', 'assignee', 'status'])
    .execute();
  await db.schema
    .createIndex('document_type_submitted')
    .on('document')
    .columns(['type', 'submitted_at'])
    .execute();
  await db.schema
    .createIndex('document_type_year')
    .on('document')
    .columns(['type', 'year'])
    .execute();
  await sql`create unique index document_type_number on document (type, number) where number is not null`.execute(
    db,
  );

  await db.schema
    .createTable('document_version')
    .addColumn('document_id', 'uuid', (c) =>
      c.notNull().references('document.id').onDelete('cascade'),
    )
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('assignee', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_version_pk', ['document_id', 'version'])
    .execute();

  await db.schema
    .createTable('document_history')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('document_id', 'uuid', (c) =>
      c.notNull().references('document.id').onDelete('cascade'),
    )
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('notes', 'text')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('actor_email', 'text')
    .addColumn('actor_mobile', 'text')
    .execute();
  await db.schema
    .createIndex('document_history_document')
    .on('document_history')
    .columns(['document_id', 'id'])
    .execute();
  // History is append-only: the database refuses to change or remove a line.
  await sql`create function document_history_append_only() returns trigger language plpgsql as $$
    begin raise exception 'document history is append-only'; end $$`.execute(db);
  await sql`create trigger document_history_no_update before update or delete on document_history
    for each row execute function document_history_append_only()`.execute(db);

  await db.schema
    .createTable('document_sequence')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('last', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_sequence_pk', ['type', 'year'])
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('document_id', 'uuid')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('PENDING'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempt_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('outbox_pending')
    .on('outbox')
    .columns(['status', 'created_at'])
    .execute();

  await db.schema
    .createTable('media')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'media',
    'outbox',
    'document_sequence',
    'document_history',
    'document_version',
    'document',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await sql`drop function if exists document_history_append_only`.execute(db);
}
