import type { Kysely } from 'kysely';
import type { Database, OutboxTable } from '../db/schema';
import type { ChallengeTable, OutboxDeliveryColumns } from './rows';

export type { ChallengeTable, OutboxAttachment, OutboxDeliveryColumns } from './rows';

// Tables and columns added by migration 0005_notifications. A type alias, not an interface: withTables wants a type with an implicit index signature.
export type NotificationTables = {
  outbox: OutboxTable & OutboxDeliveryColumns;
  challenge: ChallengeTable;
};

export type NotificationDatabase = Database & NotificationTables;

export function withNotificationTables(db: Kysely<Database>): Kysely<NotificationDatabase> {
  return db.withTables<NotificationTables>();
}
