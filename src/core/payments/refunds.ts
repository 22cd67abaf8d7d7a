import type { WorkflowDefinition } from '../documents/workflow';

/** Refunds as the API answers them and the portal shows them (docs/payments.md, "Refunds"). */

export type RefundStatus = 'PENDING_APPROVAL' | 'REQUESTED' | 'REFUNDED' | 'FAILED' | 'REJECTED';
export type RefundMethod = 'card' | 'transfer';

/** Why money is given back: codes shown as words (`refund.reasons.<code>`). */
export const REFUND_REASONS = [
  'withdrawal',
  'overpayment',
  'duplicate',
  'refused',
  'person-refused',
  'service-not-provided',
  'other',
] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const REFUND_STATUSES: readonly RefundStatus[] = [
  'PENDING_APPROVAL',
  'REQUESTED',
  'REFUNDED',
  'FAILED',
  'REJECTED',
];

export interface RefundView {
  id: string;
  refundNumber: string;
  documentType: string;
  documentId: string;
  documentNumber: string | null;
  status: RefundStatus;
  method: RefundMethod;
  /** Decimal string ("10.00"). */
  amount: string;
  currency: string;
  reason: string;
  note: string | null;
  requestedAt: string;
  decidedAt: string | null;
  decisionReason: string | null;
  completedAt: string | null;
  transferReference: string | null;
  /** The caller asked for it: they may not approve it (four eyes). */
  requestedByMe: boolean;
}

/** A paid document's refunds, what is left to refund, and what the caller may do. */
export interface DocumentRefunds {
  refunds: RefundView[];
  /** Null when nothing was paid (nothing to refund). */
  paid: string | null;
  refunded: string;
  available: string;
  currency: string | null;
  method: RefundMethod | null;
  /** Amounts above it need a second officer's approval. */
  approvalAbove: string | null;
  canRequest: boolean;
  canApprove: boolean;
}

/** The effect that opens a withdrawal's refund by the payment's declared stages. */
export const REFUND_EFFECT = 'refundOnWithdrawal';

/** Whether taking the action refunds the fees paid by the declared rules (its dialog quotes it). */
export function opensRefund(
  workflow: Pick<WorkflowDefinition, 'payment' | 'actions'>,
  action: string,
): boolean {
  return Boolean(
    workflow.payment?.refunds && workflow.actions[action]?.effects?.includes(REFUND_EFFECT),
  );
}
