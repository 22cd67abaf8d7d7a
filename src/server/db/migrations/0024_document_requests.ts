import { sql, type Kysely } from 'kysely';

/**
 * Requests for information (docs/workflows.md): the items an opening action (a query) asks a
 * document's owner for, one row per item and round, with the answer given to it. An item keeps
 * its label as chosen (a catalogue entry's texts then, or the free text), so a later change to
 * the catalogue never rewrites what was asked. A round closes when an answering action is taken.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_request')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('document_id', 'uuid', (c) =>
      c.notNull().references('document.id').onDelete('cascade'),
    )
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('question', 'text')
    .addColumn('opened_at', 'timestamptz', (c) => c.notNull())
    .addColumn('opened_by', 'text', (c) => c.notNull())
    .addColumn('catalog', 'text')
    .addColumn('code', 'text')
    .addColumn('label', 'jsonb', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mandatory', 'boolean', (c) => c.notNull())
    .addColumn('due', 'date', (c) => c.notNull())
    .addColumn('answer', 'text')
    .addColumn('media_id', 'uuid')
    .addColumn('answered_at', 'timestamptz')
    .addColumn('answered_by', 'text')
    .addColumn('closed_at', 'timestamptz')
    .addCheckConstraint('document_request_kind', sql`kind in ('answer', 'document')`)
    .addUniqueConstraint('document_request_position', ['document_id', 'round', 'position'])
    .execute();
  // An officer reads an answer's file through the document naming it (access.ts).
  await db.schema
    .createIndex('document_request_media')
    .on('document_request')
    .column('media_id')
    .where(sql.ref('media_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('document_request').execute();
}
