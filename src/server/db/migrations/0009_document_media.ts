import { sql, type Kysely } from 'kysely';
import { mediaIdsOf } from '../../documents/media-references';

const BATCH = 500;

/**
 * Which uploads each document names. An officer may read a file when a document of a workflow
 * they see in full names it; finding that by searching every document's JSON read the whole
 * table of that type, so the names are kept in their own table, indexed by file. Existing
 * documents are read once, in batches, to fill it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_media')
    .addColumn('document_id', 'uuid', (c) =>
      c.notNull().references('document.id').onDelete('cascade'),
    )
    .addColumn('media_id', 'uuid', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_media_pk', ['document_id', 'media_id'])
    .execute();
  await db.schema
    .createIndex('document_media_media')
    .on('document_media')
    .column('media_id')
    .execute();

  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await sql<{ id: string; data: unknown }>`
      select id, data from document where id > ${after}::uuid order by id limit ${BATCH}
    `.execute(db);
    for (const row of rows) {
      for (const mediaId of mediaIdsOf(row.data)) {
        await sql`
          insert into document_media (document_id, media_id) values (${row.id}::uuid, ${mediaId}::uuid)
          on conflict do nothing
        `.execute(db);
      }
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('document_media').execute();
}
