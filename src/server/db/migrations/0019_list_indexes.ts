import { sql, type Kysely } from 'kysely';

/**
 * The lists' indexes are derived from the workflows at start (list-indexes.ts): per document
 * type `(status, updated_at, id)` and `(owner, updated_at, id)`, which serve what
 * `(type, status, updated_at)` and `(type, owner, updated_at)` did and also the sort's
 * tie-break and keyset paging. Those two go, so each change of a document updates one index
 * less of each kind.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists document_type_status`.execute(db);
  await sql`drop index if exists document_type_owner`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists document_type_status
    on document (type, status, updated_at)`.execute(db);
  await sql`create index if not exists document_type_owner
    on document (type, owner, updated_at)`.execute(db);
}
