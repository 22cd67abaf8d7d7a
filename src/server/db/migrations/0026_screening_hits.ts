import { sql, type Kysely } from 'kysely';

/**
 * What screening against the block catalogues found (docs/workflows.md, "Screening"): one row
 * per entry that matched a document at an action (`refused`: the action was refused) or when a
 * block was written later (`flagged`: the document was already submitted). Written in a
 * transaction of its own, so a refusal's rollback keeps it. `document_id` is null when the
 * refused action would have created the document. No foreign key: a document never written
 * (a refused creation) is still recorded, and catalogue entries change after the hit (`entry`
 * keeps the entry's data as matched).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('screening_hit')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('document_id', 'uuid')
    .addColumn('catalog', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'uuid', (c) => c.notNull())
    .addColumn('entry_key', 'text', (c) => c.notNull())
    .addColumn('entry', 'jsonb', (c) => c.notNull())
    .addColumn('matched', 'jsonb', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('screened_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('screening_hit_outcome', sql`outcome in ('refused', 'flagged')`)
    .execute();
  // A document's hits (its screen), and the lists' "has a hit" EXISTS: one index serves both.
  await db.schema
    .createIndex('screening_hit_document')
    .on('screening_hit')
    .columns(['document_id', 'screened_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('screening_hit').execute();
}
