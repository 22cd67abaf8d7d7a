import { sql, type Kysely } from 'kysely';

/**
 * What a refund's life records besides migration 0027: why an approver decided as they did,
 * the bank transfer's reference of a refund by transfer, and the gateway's own refunds (the
 * sandbox gateway keeps its refunds, like its sessions, in a table of its own: a real gateway
 * keeps them at the bank).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('payment_refund')
    .addColumn('decision_reason', 'text')
    .addColumn('transfer_reference', 'text')
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await db.schema
    .createTable('sandbox_gateway_refund')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sandbox_gateway_session.id'))
    .addColumn('refund_reference', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('notify_url', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull().defaultTo('PENDING'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'sandbox_gateway_refund_outcome',
      sql`outcome in ('PENDING', 'REFUNDED', 'FAILED')`,
    )
    .execute();
  await sql`create index sandbox_gateway_refund_session on sandbox_gateway_refund (session_id)`.execute(
    db,
  );
  // The sender's queue: card refunds REQUESTED and not yet acknowledged by the gateway.
  await sql`create index payment_refund_to_send on payment_refund (requested_at)
    where status = 'REQUESTED' and gateway_refund_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_gateway_refund').execute();
  await db.schema
    .alterTable('payment_refund')
    .dropColumn('decision_reason')
    .dropColumn('transfer_reference')
    .dropColumn('sent_at')
    .execute();
}
