import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { withNotificationTables, type NotificationDatabase, type OutboxAttachment } from './tables';

/** The statuses of a delivery not (yet) failed. */
const OUTBOX_ACTIVE = ['PENDING', 'SENDING', 'SENT'];

/** A message to send: one channel, one recipient. */
export interface OutgoingMessage {
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  /** The language it is written in. */
  language?: string | null;
  /** The document it is about. */
  documentId?: string | null;
  /** The inbox message it delivers. */
  messageId?: string | null;
  /** The confirmation code it carries (challenge/service.ts). */
  code?: string | null;
  attachments?: readonly OutboxAttachment[];
}

/** The one way anything is sent: queued in the caller's transaction (a rollback sends nothing). */
export async function enqueue(
  trx: Kysely<Database> | Kysely<NotificationDatabase>,
  messages: readonly OutgoingMessage[],
): Promise<void> {
  if (messages.length === 0) return;
  // Either way the same database: one that already knows the outbox is widened to nothing new.
  await withNotificationTables(trx as Kysely<Database>)
    .insertInto('outbox')
    .values(
      messages.map((message) => ({
        channel: message.channel,
        recipient: message.recipient,
        subject: message.subject,
        body: message.body,
        language: message.language ?? null,
        document_id: message.documentId ?? null,
        message_id: message.messageId ?? null,
        code: message.code ?? null,
        attachments: message.attachments?.length ? JSON.stringify(message.attachments) : null,
      })),
    )
    .execute();
}

/** The outbox rows delivering an inbox message, one per channel, in channel order. */
export function deliveriesOf(trx: Kysely<Database>, messageId: string) {
  return withNotificationTables(trx)
    .selectFrom('outbox')
    .select(['channel', 'status', 'attempts', 'attempt_at', 'last_error'])
    .where('message_id', '=', messageId)
    .orderBy('channel')
    .execute();
}

/** Tries a message's failed deliveries afresh. */
export async function retryFailed(trx: Kysely<Database>, messageId: string): Promise<void> {
  await withNotificationTables(trx)
    .updateTable('outbox')
    .set({ status: 'PENDING', attempts: 0, next_attempt_at: null, last_error: null })
    .where('message_id', '=', messageId)
    .where('status', '=', 'FAILED')
    .execute();
}

/** Whether some delivery of a message is still pending or being sent. */
export async function stillSending(trx: Kysely<Database>, messageId: string): Promise<boolean> {
  const active = await withNotificationTables(trx)
    .selectFrom('outbox')
    .select('id')
    .where('message_id', '=', messageId)
    .where('status', 'in', OUTBOX_ACTIVE)
    .executeTakeFirst();
  return active !== undefined;
}
