import { sql, type Kysely } from 'kysely';

/**
 * Delivery of the outbox (e-mail, SMS) and confirmation codes.
 *
 * outbox gains what the delivery worker needs: attachments (jsonb, e.g. an e-visa PDF), the
 * time of the next attempt (backoff), the last error and the time of delivery. Statuses:
 * PENDING -> SENDING (claimed by one worker) -> SENT, back to PENDING for a retry, FAILED after
 * the last attempt, or KEPT when no provider is configured (nothing leaves the machine).
 *
 * challenge holds confirmation codes as argon2id hashes only, with their expiry, attempts and
 * the time they were used.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('outbox')
    .addColumn('attachments', 'jsonb')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await sql`create index outbox_delivery on outbox (next_attempt_at, created_at)
    where status = 'PENDING' and channel in ('email', 'sms')`.execute(db);

  await db.schema
    .createTable('challenge')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('challenge_destination')
    .on('challenge')
    .columns(['destination', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('challenge').execute();
  await sql`drop index if exists outbox_delivery`.execute(db);
  await db.schema
    .alterTable('outbox')
    .dropColumn('attachments')
    .dropColumn('next_attempt_at')
    .dropColumn('last_error')
    .dropColumn('sent_at')
    .execute();
}
