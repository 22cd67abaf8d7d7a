import { sql, type Kysely } from 'kysely';

/**
 * Officers' own work on a document (docs/workflows.md, "Case notes and flags"): the flags set
 * on it, a text array on the document row with a GIN index so that a list filtered by flags
 * (`flags @> array[...]`) reads the index; and the internal case notes, each with its edits
 * (the text each edit replaced, who wrote it and when), so that no note's history is lost.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table document add column flags text[] not null default '{}'`.execute(db);
  await sql`create index document_flags on document using gin (flags)`.execute(db);
  await db.schema
    .createTable('document_case_note')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('document_id', 'uuid', (c) =>
      c.notNull().references('document.id').onDelete('cascade'),
    )
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_by_name', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('document_case_note_document')
    .on('document_case_note')
    .columns(['document_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('document_case_note_edit')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('note_id', 'uuid', (c) =>
      c.notNull().references('document_case_note.id').onDelete('cascade'),
    )
    // The version the edit replaced, its text, and who wrote that text when.
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('written_by', 'text', (c) => c.notNull())
    .addColumn('written_by_name', 'text', (c) => c.notNull())
    .addColumn('written_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('document_case_note_edit_note')
    .on('document_case_note_edit')
    .columns(['note_id', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('document_case_note_edit').execute();
  await db.schema.dropTable('document_case_note').execute();
  await sql`drop index document_flags`.execute(db);
  await sql`alter table document drop column flags`.execute(db);
}
