import type { ColumnType, Generated } from 'kysely';

// The row types alone, importing nothing of the application: src/server/db/schema.ts merges them
// into Database without importing tables.ts, whose helpers need Database (no type cycle).

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
  /** The inbox message the row delivers (0012); none for confirmation codes. */
  message_id: ColumnType<string | null, string | null | undefined, string | null>;
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
