// A hosted-payment-page gateway (docs/payments.md): card details never reach the portal.

export type GatewayOutcome = 'PENDING' | 'APPROVED' | 'DECLINED' | 'CANCELLED' | 'TIMED_OUT';

export interface SessionRequest {
  /** The portal's order reference, shown on the gateway's page and sent back in notifications. */
  orderReference: string;
  amountCents: number;
  /** ISO 4217 code, as the document's fees were frozen in. */
  currency: string;
  /** What the payer is paying for, shown on the gateway's page. */
  description: string;
  /** Where the gateway sends the browser after the payment, whatever the outcome. */
  returnUrl: string;
  notifyUrl: string;
  /** The payer's language, for the gateway's page ('en' or 'fr'). */
  language: string;
}

export interface GatewaySession {
  sessionId: string;
  redirectUrl: string;
}

/** A session's state: from a verified notification or a query. */
export interface GatewayReport {
  sessionId: string;
  orderReference: string;
  outcome: GatewayOutcome;
  amountCents: number;
  currency: string;
  transactionId?: string;
  /** "•••• 1111": the only part of a card the portal keeps. */
  maskedCard?: string;
}

export interface PaymentGateway extends RefundingGateway {
  readonly id: string;
  createSession(request: SessionRequest): Promise<GatewaySession>;
  /** The notification's report if its signature (over the raw body) is the gateway's. */
  verifyNotification(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): GatewayReport | undefined;
  querySession(sessionId: string): Promise<GatewayReport>;
}

// --- Refunds (docs/payments.md, "Refunds") ---

export type RefundOutcome = 'PENDING' | 'REFUNDED' | 'FAILED';

export interface RefundRequestToGateway {
  /** The portal's refund number (RF-2026-000001), sent back in the notification. */
  refundReference: string;
  /** The gateway's session of the payment refunded (the order's `gateway_session`). */
  sessionId: string;
  /** The payment's transaction at the gateway, when it gave one. */
  orderTransactionId?: string;
  /** All of what was paid or a part of it; the gateway refuses more than is left. */
  amountCents: number;
  currency: string;
  notifyUrl: string;
  /** The same key twice is the same refund at the gateway (a retried send refunds once). */
  idempotencyKey: string;
}

/** A refund's state at the gateway: from a verified notification or a query. */
export interface RefundReport {
  /** The gateway's id of the refund. */
  refundId: string;
  refundReference: string;
  sessionId: string;
  outcome: RefundOutcome;
  amountCents: number;
  currency: string;
}

/** The optional part of a gateway that can give money back. */
export interface RefundingGateway {
  createRefund(request: RefundRequestToGateway): Promise<RefundReport>;
  /** The refund notification's report if its signature (over the raw body) is the gateway's. */
  verifyRefundNotification(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): RefundReport | undefined;
  queryRefund(refundId: string): Promise<RefundReport>;
}
