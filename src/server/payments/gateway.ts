/**
 * A hosted-payment-page gateway: the portal creates a session for an order and sends the payer's
 * browser to the gateway's page, which takes the card; the gateway tells the portal the outcome
 * by a signed server-to-server notification, and answers queries about a session. Card numbers
 * and security codes never reach the portal. The sandbox (src/server/payments/sandbox) is the
 * embedded default; docs/payments.md says how a real gateway plugs in.
 */

/** The outcome of a session as the gateway reports it. */
export type GatewayOutcome = 'PENDING' | 'APPROVED' | 'DECLINED' | 'CANCELLED' | 'TIMED_OUT';

export interface SessionRequest {
  /** The portal's order reference, shown on the gateway's page and sent back in notifications. */
  orderReference: string;
  /** Integer cents. */
  amountCents: number;
  /** ISO 4217 code, as the document's fees were frozen in. */
  currency: string;
  /** What the payer is paying for, shown on the gateway's page. */
  description: string;
  /** Where the gateway sends the browser after the payment, whatever the outcome. */
  returnUrl: string;
  /** Where the gateway posts its signed notification. */
  notifyUrl: string;
  /** The payer's language, for the gateway's page ('en' or 'fr'). */
  language: string;
}

export interface GatewaySession {
  sessionId: string;
  /** The gateway's hosted page for this session. */
  redirectUrl: string;
}

/** A session's state: from a verified notification or a query. */
export interface GatewayReport {
  sessionId: string;
  orderReference: string;
  outcome: GatewayOutcome;
  /** Integer cents the gateway charged (or would charge). */
  amountCents: number;
  currency: string;
  /** The gateway's transaction id, once there is one. */
  transactionId?: string;
  /** "•••• 1111": the only part of a card the portal keeps. */
  maskedCard?: string;
}

export interface PaymentGateway {
  readonly id: string;
  createSession(request: SessionRequest): Promise<GatewaySession>;
  /**
   * The notification's report if its signature is the gateway's; undefined when it is not (the
   * caller refuses and logs it). `rawBody` is the body exactly as received.
   */
  verifyNotification(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): GatewayReport | undefined;
  /** Asks the gateway where a session stands (the browser came back before the notification). */
  querySession(sessionId: string): Promise<GatewayReport>;
}
