import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Tables and columns added by migration 0005_notifications. `withNotificationTables` gives a
 * Kysely that knows them whether or not they are merged into the shared `Database` interface.
 */

/** A file sent with an e-mail: its content inline (base64) or an uploaded file of the media table. */
export interface OutboxAttachment {
  filename: string;
  contentType: string;
  contentBase64?: string;
  mediaId?: string;
}

/** Columns 0005 adds to `outbox` (status also takes SENDING, SENT, FAILED and KEPT). */
export interface OutboxDeliveryColumns {
  attachments: ColumnType<OutboxAttachment[] | null, string | null | undefined, string | null>;
  next_attempt_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  sent_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface ChallengeTable {
  id: Generated<string>;
  /** 'mobile' or 'email'. */
  channel: string;
  /** Normalised phone number or lower-cased e-mail address. */
  destination: string;
  purpose: string;
  /** argon2id hash of the code; the code itself is never stored here. */
  code_hash: string;
  attempts: Generated<number>;
  expires_at: ColumnType<Date, Date, Date>;
  used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Generated<Date>;
}

// A type alias, not an interface: withTables wants a type with an implicit index signature.
export type NotificationTables = {
  outbox: OutboxDeliveryColumns;
  challenge: ChallengeTable;
};

export type NotificationDatabase = Database & NotificationTables;

export function withNotificationTables(db: Kysely<Database>): Kysely<NotificationDatabase> {
  return db.withTables<NotificationTables>();
}
