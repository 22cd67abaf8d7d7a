import type { Translations } from '../i18n/localized';

/** Payments as the API and the browser see them; amounts are decimal strings. */

/** Where a payment order stands. */
export type PaymentStatus =
  'CREATED' | 'PENDING' | 'APPROVED' | 'DECLINED' | 'CANCELLED' | 'TIMED_OUT';

/** One fee line of an order (a document fee, a sub-document fee). */
export interface FeeLine {
  code: string;
  name: string;
  /** Who the line is for, when not the applicant (a dependant's or an employee's name). */
  narration?: string;
  /** Decimal string, two places: "50.00". */
  amount: string;
  /** The name in the other languages, frozen with it (core/i18n/localized.ts). */
  i18n?: Translations;
}

/**
 * What withdrawing a document would refund now (`GET /api/payments/{type}/{id}/refund`): the
 * refund rules frozen with its fees at the stage its status is in. Decimal strings; `refund` is
 * "0.00" when nothing is refundable (or nothing was paid).
 */
export interface RefundQuote {
  documentStatus: string;
  currency: string;
  paid: string;
  refund: string;
  /** The refund stage the status is in (`payment.refunds.stages[].id`), null in none. */
  stage: string | null;
}

/** What an order and its receipt both show. */
interface OrderTotal {
  orderId: string;
  orderReference: string;
  /** ISO 4217 code of the amounts (the workflow's `payment.currency`). */
  currency: string;
  items: FeeLine[];
  /** Decimal string: the sum of the items. */
  total: string;
}

/** A payment order of a document, as `GET /api/payments/{type}/{id}` answers it. */
export interface PaymentOrderView extends OrderTotal {
  status: PaymentStatus;
  /** Decimal string, once approved. */
  amountPaid: string | null;
  /** "•••• 1111", once approved; the portal never sees more of a card. */
  maskedCard: string | null;
  receiptReference: string | null;
  paidAt: string | null;
  createdAt: string;
}

/** What a receipt shows (the PDF of `GET /api/payments/{type}/{id}/receipt`). */
export interface ReceiptData extends OrderTotal {
  receiptReference: string;
  /** The paid document's number and title ("Visa application VA-2026-000042"). */
  documentNumber: string;
  documentTitle: string;
  payerName: string;
  amountPaid: string;
  maskedCard: string;
  paidAt: string;
}
