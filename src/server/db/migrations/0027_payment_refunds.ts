import { sql, type Kysely } from 'kysely';

/**
 * Money given back (docs/payments.md, "Refunds"): one row per refund of a paid document, by the
 * card gateway (`method` card, `order_id` the order refunded) or by bank transfer (an invoice
 * paid by transfer). A refund has its own number (`RF-<year>-<serial>`) and status:
 *
 * - PENDING_APPROVAL: above the configured amount, waiting for an officer other than the
 *   requester;
 * - REQUESTED: sent (or to be sent) to the gateway, waiting for its signed notification;
 * - REFUNDED, FAILED, REJECTED: final.
 *
 * Two rules hold in SQL whatever requests race: at most one refund of a document is open
 * (PENDING_APPROVAL or REQUESTED) at a time (a partial unique index), and the refunds of a
 * document that are not FAILED or REJECTED never add up to more than was paid (checked by
 * `openRefund` under the document's row lock). `idempotency_key` makes a replayed request the
 * same refund.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_refund')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('refund_number', 'text', (c) => c.notNull().unique())
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('document_id', 'uuid', (c) => c.notNull().references('document.id'))
    .addColumn('order_id', 'uuid', (c) => c.references('payment_order.id'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.unique())
    .addColumn('gateway', 'text')
    .addColumn('gateway_refund_id', 'text')
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .addCheckConstraint('payment_refund_method', sql`method in ('card', 'transfer')`)
    .addCheckConstraint(
      'payment_refund_status',
      sql`status in ('PENDING_APPROVAL', 'REQUESTED', 'REFUNDED', 'FAILED', 'REJECTED')`,
    )
    .execute();
  await sql`create unique index payment_refund_one_open on payment_refund (document_id)
    where status in ('PENDING_APPROVAL', 'REQUESTED')`.execute(db);
  await sql`create unique index payment_refund_gateway_id on payment_refund (gateway, gateway_refund_id)
    where gateway_refund_id is not null`.execute(db);
  await sql`create index payment_refund_document on payment_refund (document_id, requested_at)`.execute(
    db,
  );
  // The finance report reads refunds by the day they were completed.
  await sql`create index payment_refund_completed on payment_refund (completed_at)
    where status = 'REFUNDED'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_refund').execute();
}
