import type { Kysely, Transaction } from 'kysely';
import type {
  Database,
  DocumentCaseNoteEditTable,
  DocumentCaseNoteTable,
  DocumentHistoryTable,
  DocumentMediaTable,
  DocumentRequestTable,
  DocumentSequenceTable,
  DocumentTable,
  DocumentVersionTable,
} from '../../db/schema';

/** The document tables, for this folder only (tests/unit/store-boundary.test.ts checks it). */
// A type alias, not an interface: withTables wants a type with an implicit index signature.
export type DocumentTables = {
  document: DocumentTable;
  document_version: DocumentVersionTable;
  document_history: DocumentHistoryTable;
  document_sequence: DocumentSequenceTable;
  document_media: DocumentMediaTable;
  document_case_note: DocumentCaseNoteTable;
  document_case_note_edit: DocumentCaseNoteEditTable;
  document_request: DocumentRequestTable;
};

export type StoreDatabase = Database & DocumentTables;

/** The database or transaction the rest of the server hands over, with the document tables. */
export function storeDb(db: Transaction<Database>): Transaction<StoreDatabase>;
export function storeDb(db: Kysely<Database>): Kysely<StoreDatabase>;
export function storeDb(db: Kysely<Database>): Kysely<StoreDatabase> {
  return db.withTables<DocumentTables>() as Kysely<StoreDatabase>;
}
