import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema';
import type { DocumentTables } from '../../src/server/documents/store/tables';
import type { NotificationTables } from '../../src/server/notifications/tables';

/** Every table: the server's, the document tables and the outbox. Tests only. */
export type AllTables = Database & DocumentTables & NotificationTables;

export function allTables(db: Kysely<Database>): Kysely<AllTables> {
  return db.withTables<DocumentTables & NotificationTables>();
}
