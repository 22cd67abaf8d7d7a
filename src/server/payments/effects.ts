import { sql } from 'kysely';
import { fromCents, toCents } from '../../core/payments/money';
import type { Effect, EffectContext } from '../documents/effect-context';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { resolvePointer as valueAt, setAt } from '../../core/rules/registry';
import { feesDue, refundDue, type FrozenFees } from './fees';
import { requestRefundInAction } from './refund-service';
import { REFUND_EFFECT } from '../../core/payments/refunds';
import { catalogsIn } from '../catalog/valid-at';
import { invalid } from '../search/compile-search';

/** Writes the fees due now at the workflow's fees pointer (on store, update and submit). */
async function freezeFees({ trx, environment, workflow, document, now }: EffectContext) {
  if (!workflow.payment) return;
  const catalogs = environment.catalogs?.through(trx) ?? catalogsIn(trx);
  setAt(
    document.data,
    workflow.payment.fees,
    await feesDue(catalogs, workflow.payment, document.data, now),
  );
}

/** The initiate step: terms accepted, an order opened for exactly the frozen fees. */
async function createPaymentOrder({
  trx,
  workflow,
  document,
  request,
  principal,
}: EffectContext): Promise<void> {
  const payment = workflow.payment;
  if (!payment) throw new Error(`Workflow ${workflow.id} has no payment block`);
  const accepted = (request.data as { termsAccepted?: unknown } | undefined)?.termsAccepted;
  if (accepted !== true) throw invalid([{ path: '/termsAccepted', rule: 'accepted' }]);
  const fees = valueAt(document.data, payment.fees) as FrozenFees | undefined;
  const cents = toCents(fees?.total);
  if (!fees || cents === undefined || cents <= 0)
    throw new ApiProblem(409, ERROR_CODES.nothingToPay);
  const { attempts } = (await trx
    .selectFrom('payment_order')
    .select((eb) => eb.fn.countAll<string>().as('attempts'))
    .where('document_id', '=', document.id)
    .executeTakeFirstOrThrow()) as { attempts: string };
  const orderReference = `${document.number ?? document.id.slice(0, 8)}-P${Number(attempts) + 1}`;
  const order = await trx
    .insertInto('payment_order')
    .values({
      document_id: document.id,
      document_type: document.type,
      order_reference: orderReference,
      amount_cents: cents,
      currency: fees.currency,
      // What the order charges; the lines' refund rules stay with the document's fees.
      items: JSON.stringify(
        fees.lines.map(({ status: _status, refund: _refund, ...line }) => line),
      ),
      created_by: principal.subject,
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  // Into the section that holds them (the visa header has orderId and orderReference fields).
  const holder = valueAt(document.data, payment.receipt);
  setAt(document.data, payment.receipt, {
    ...(typeof holder === 'object' && holder !== null ? holder : {}),
    orderId: order.id,
    orderReference,
  });
  // Another order of this document still waiting at the gateway is superseded.
  await trx
    .updateTable('payment_order')
    .set({ status: 'CANCELLED', updated_at: sql<string>`now()` })
    .where('document_id', '=', document.id)
    .where('id', '!=', order.id)
    .where('status', 'in', ['CREATED', 'PENDING'])
    .execute();
}

/** The pay step (once the gateway approved): the frozen fees say what was paid, when. */
async function recordPayment({ trx, workflow, document }: EffectContext): Promise<void> {
  const payment = workflow.payment;
  if (!payment) return;
  const fees = valueAt(document.data, payment.fees) as FrozenFees | undefined;
  const order = await trx
    .selectFrom('payment_order')
    .select(['amount_paid_cents', 'receipt_reference', 'paid_at'])
    .where('document_id', '=', document.id)
    .where('status', '=', 'APPROVED')
    .executeTakeFirst();
  if (!fees || !order?.receipt_reference || !order.paid_at) return;
  setPaid(document.data, payment.fees, fees, {
    amountPaid: fromCents(Number(order.amount_paid_cents)),
    receiptReference: order.receipt_reference,
    paymentDate: new Date(order.paid_at).toISOString(),
  });
}

/** Writes the frozen fees as paid: every line PAID, with what was paid, the receipt and when. */
function setPaid(
  data: Record<string, unknown>,
  pointer: string,
  fees: FrozenFees,
  receipt: Required<Pick<FrozenFees, 'amountPaid' | 'receiptReference' | 'paymentDate'>>,
): void {
  const lines = fees.lines.map((line) => ({ ...line, status: 'PAID' }));
  setAt(data, pointer, { ...fees, lines, ...receipt });
}

/** Paid through another document (an invoice): in full, its number as the receipt. */
function recordSettlement({ workflow, document, cause, now }: EffectContext): void {
  const payment = workflow.payment;
  if (!payment || !cause) return;
  const fees = valueAt(document.data, payment.fees) as FrozenFees | undefined;
  if (!fees) return;
  setPaid(document.data, payment.fees, fees, {
    amountPaid: fees.total,
    receiptReference: cause.number ?? cause.id,
    paymentDate: now.toISOString(),
  });
}

/**
 * A withdrawal's refund (docs/payments.md, "Withdrawal and refund rules"): what the frozen fees
 * give back at the status the document leaves (`refundDue`, as the quote said) is written beside
 * the fees and, when above zero, opened as a refund in the action's transaction: to the card of
 * the approved order, else by bank transfer (paid by invoice). The action's lock on the document
 * and the idempotency key make a repeated or racing withdrawal open it at most once.
 */
async function refundOnWithdrawal(context: EffectContext): Promise<void> {
  const { workflow, document, fromStatus, now } = context;
  const payment = workflow.payment;
  if (!payment) return;
  const due = refundDue(payment, document.data, fromStatus);
  const fees = valueAt(document.data, payment.fees) as FrozenFees | undefined;
  if (!fees || due.paidCents <= 0) return;
  let refundReference: string | undefined;
  if (due.refundCents > 0) {
    // The refund service finds what was paid and how, asks for an approval above the
    // workflow's threshold, and sends a card refund to the gateway once this action commits.
    const opened = await requestRefundInAction(context, {
      amountCents: due.refundCents,
      reason: 'withdrawal',
      idempotencyKey: `${context.action}:${document.id}`,
    });
    refundReference = opened.refundNumber;
  }
  setAt(document.data, payment.fees, {
    ...fees,
    refundAmount: fromCents(due.refundCents),
    ...(refundReference ? { refundReference } : {}),
    refundDate: now.toISOString(),
  });
}

/** The effects of every workflow with a `payment` block; `freezeFees` only derives data. */
export const PAYMENT_EFFECTS = {
  effects: {
    freezeFees,
    createPaymentOrder,
    recordPayment,
    recordSettlement,
    [REFUND_EFFECT]: refundOnWithdrawal,
  },
  deriving: ['freezeFees'],
} as const satisfies { effects: Record<string, Effect>; deriving: readonly string[] };
