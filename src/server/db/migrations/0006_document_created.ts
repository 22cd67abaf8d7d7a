import type { Kysely } from 'kysely';

/**
 * The statistics of a workflow count its documents by creation date (this year per status, the
 * last six months per month); 0002 indexes owner, assignee, status, submission and year, but not
 * creation, so without this index each count would read every document of the type.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('document_type_created')
    .on('document')
    .columns(['type', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('document_type_created').execute();
}
