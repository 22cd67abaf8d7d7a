import { sql, type Kysely } from 'kysely';

/**
 * Payments received outside the card gateway and reconciled by an officer (docs/payments.md,
 * "Reconciling an invoice"): one row per verification of a document an action's `reconcile`
 * declares, with what was due, what the bank received, the bank's reference and the outcome:
 *
 * - SHORT: less was received; nothing settled, the payer queried for the difference;
 * - EXACT: every item settled;
 * - OVER: every item settled and a refund of the excess opened (payment_refund).
 *
 * `round` counts the verifications of the document (1, 2...): an overpayment's refund is keyed
 * on it. `lines` are the fee lines of the documents settled (code, amount as a decimal string)
 * and, for an excess, one line without a code: the payment report sums them by fee code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_settlement')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('document_id', 'uuid', (c) => c.notNull().references('document.id'))
    .addColumn('document_number', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('due_cents', 'bigint', (c) => c.notNull().check(sql`due_cents >= 0`))
    .addColumn('received_cents', 'bigint', (c) => c.notNull().check(sql`received_cents >= 0`))
    .addColumn('bank_reference', 'text', (c) => c.notNull())
    .addColumn('lines', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('verified_by', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('payment_settlement_outcome', sql`outcome in ('SHORT', 'EXACT', 'OVER')`)
    .addUniqueConstraint('payment_settlement_round', ['document_id', 'round'])
    .execute();
  // The payment report reads settlements by the day they were verified.
  await sql`create index payment_settlement_verified on payment_settlement (verified_at)
    where outcome <> 'SHORT'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_settlement').execute();
}
