import { sql, type Transaction } from 'kysely';
import type { Database, RefundStatus } from '../db/schema';
import { nextNumber } from '../documents/store/numbering';

/** What a refund gives back, and why (docs/payments.md, "Refunds"). */
export interface RefundRequest {
  documentType: string;
  documentId: string;
  /** The card order refunded through the gateway; absent for a refund by bank transfer. */
  orderId?: string;
  method: 'card' | 'transfer';
  currency: string;
  amountCents: number;
  /** What was paid for the document, in cents: the refunds never add up to more. */
  paidCents: number;
  /** A code saying why (`withdrawal`, `overpayment`, `refused-person`...), shown as words. */
  reason: string;
  note?: string;
  /** The same key twice is the same refund (a replayed request opens nothing more). */
  idempotencyKey?: string;
  requestedBy: string;
  /** PENDING_APPROVAL when a second officer must approve it, else REQUESTED. */
  status: Extract<RefundStatus, 'PENDING_APPROVAL' | 'REQUESTED'>;
  /** The holder's language: their receipt and notices. */
  language: string;
}

export type RefundRefusal = 'exceedsPaid' | 'refundOpen';

export type OpenedRefund =
  | { opened: true; id: string; refundNumber: string; replayed: boolean }
  | { opened: false; refusal: RefundRefusal };

/** Statuses whose amount counts against what was paid. */
const COUNTED: readonly RefundStatus[] = ['PENDING_APPROVAL', 'REQUESTED', 'REFUNDED'];

/**
 * Opens a refund in the caller's transaction, or says why not. Requests for one document queue on
 * a transaction-scoped advisory lock, so the sum they check is the sum they add to: whatever
 * races, the refunds counted never exceed `paidCents`, and one refund at a time is open (the
 * partial unique index `payment_refund_one_open` holds that even without the lock).
 */
export async function openRefund(
  trx: Transaction<Database>,
  request: RefundRequest,
  now: Date = new Date(),
): Promise<OpenedRefund> {
  await sql`select pg_advisory_xact_lock(hashtext(${'refund:' + request.documentId}))`.execute(trx);
  if (request.idempotencyKey) {
    const same = await trx
      .selectFrom('payment_refund')
      .select(['id', 'refund_number'])
      .where('idempotency_key', '=', request.idempotencyKey)
      .executeTakeFirst();
    if (same)
      return { opened: true, id: same.id, refundNumber: same.refund_number, replayed: true };
  }
  const counted = await trx
    .selectFrom('payment_refund')
    .select([
      sql<string>`coalesce(sum(amount_cents), 0)`.as('total'),
      sql<string>`count(*) filter (where status in ('PENDING_APPROVAL', 'REQUESTED'))`.as('open'),
    ])
    .where('document_id', '=', request.documentId)
    .where('status', 'in', COUNTED)
    .executeTakeFirstOrThrow();
  if (Number(counted.open) > 0) return { opened: false, refusal: 'refundOpen' };
  if (Number(counted.total) + request.amountCents > request.paidCents)
    return { opened: false, refusal: 'exceedsPaid' };
  const { number } = await nextNumber(trx, 'payment-refund', { prefix: 'RF' }, now);
  const row = await trx
    .insertInto('payment_refund')
    .values({
      refund_number: number,
      document_type: request.documentType,
      document_id: request.documentId,
      order_id: request.orderId ?? null,
      method: request.method,
      status: request.status,
      currency: request.currency,
      amount_cents: request.amountCents,
      reason: request.reason,
      note: request.note ?? null,
      idempotency_key: request.idempotencyKey ?? null,
      requested_by: request.requestedBy,
      language: request.language,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { opened: true, id: row.id, refundNumber: number, replayed: false };
}
