import { sql, type Kysely } from 'kysely';

/**
 * Payment orders of documents, and the sandbox gateway's own sessions (the embedded stand-in
 * for a bank's hosted payment page: a real gateway keeps these on its side).
 *
 * Money is integer cents (bigint). A document is paid once: at most one APPROVED order per
 * document, enforced by a partial unique index, whatever notifications arrive and in whatever
 * order. No card number or security code has a column anywhere: only the masked card.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_order')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('document_id', 'uuid', (c) => c.notNull().references('document.id'))
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('order_reference', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('CREATED'))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('NZD'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('items', 'jsonb', (c) => c.notNull())
    .addColumn('gateway', 'text')
    .addColumn('gateway_session', 'text')
    .addColumn('gateway_redirect_url', 'text')
    .addColumn('transaction_id', 'text')
    .addColumn('masked_card', 'text')
    .addColumn('amount_paid_cents', 'bigint')
    .addColumn('receipt_reference', 'text', (c) => c.unique())
    .addColumn('paid_at', 'timestamptz')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index payment_order_document on payment_order (document_id, created_at desc)`.execute(
    db,
  );
  await sql`create unique index payment_order_paid_once on payment_order (document_id)
    where status = 'APPROVED'`.execute(db);
  await sql`create unique index payment_order_session on payment_order (gateway, gateway_session)
    where gateway_session is not null`.execute(db);

  await db.schema
    .createTable('sandbox_gateway_session')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_reference', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('return_url', 'text', (c) => c.notNull())
    .addColumn('notify_url', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull().defaultTo('PENDING'))
    .addColumn('transaction_id', 'text')
    .addColumn('masked_card', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_gateway_session').ifExists().execute();
  await db.schema.dropTable('payment_order').ifExists().execute();
}
