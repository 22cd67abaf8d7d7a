import { sql, type Kysely, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { storeDb } from './tables';

/** Keeps `document_media` equal to the uploads the data names, in the data's transaction. */
export async function keepMediaReferences(
  trx: Transaction<Database>,
  documentId: string,
  mediaIds: readonly string[],
): Promise<void> {
  let stale = storeDb(trx).deleteFrom('document_media').where('document_id', '=', documentId);
  if (mediaIds.length) stale = stale.where('media_id', 'not in', [...mediaIds]);
  await stale.execute();
  if (mediaIds.length) {
    await storeDb(trx)
      .insertInto('document_media')
      .values(mediaIds.map((mediaId) => ({ document_id: documentId, media_id: mediaId })))
      .onConflict((c) => c.doNothing())
      .execute();
  }
}

/** Whether a document of one of `types`, or meeting any of `documents`, names the upload. */
export async function namedByDocumentOf(
  db: Kysely<Database> | Transaction<Database>,
  mediaId: string,
  types: readonly string[],
  documents: readonly RawBuilder<SqlBool>[] = [],
): Promise<boolean> {
  const conditions = [
    ...(types.length ? [sql<SqlBool>`document.type in (${sql.join([...types])})`] : []),
    ...documents,
  ];
  if (conditions.length === 0) return false;
  const row = await storeDb(db)
    .selectFrom('document_media')
    .innerJoin('document', 'document.id', 'document_media.document_id')
    .select('document.id')
    .where('document_media.media_id', '=', mediaId)
    .where(sql<SqlBool>`(${sql.join(conditions, sql` or `)})`)
    .executeTakeFirst();
  if (row) return true;
  // A file given as the answer to a request for information is the document's too.
  const answered = await storeDb(db)
    .selectFrom('document_request')
    .innerJoin('document', 'document.id', 'document_request.document_id')
    .select('document.id')
    .where('document_request.media_id', '=', mediaId)
    .where(sql<SqlBool>`(${sql.join(conditions, sql` or `)})`)
    .executeTakeFirst();
  return answered !== undefined;
}
