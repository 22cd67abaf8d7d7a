import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type {
  Database,
  SandboxGatewayRefundTable,
  SandboxGatewaySessionTable,
} from '../../db/schema';
import type {
  GatewayOutcome,
  GatewayReport,
  GatewaySession,
  PaymentGateway,
  RefundOutcome,
  RefundReport,
  RefundRequestToGateway,
  SessionRequest,
} from '../gateway';

/**
 * The sandbox gateway: the embedded stand-in for a bank's hosted payment page (./plugin.ts),
 * notifying the portal signed like Stripe's webhooks (timestamp + HMAC-SHA256 of "t.body").
 */

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
/** A notification older or newer than this is refused: it bounds how long a replay stays valid. */
const SANDBOX_SIGNATURE_TOLERANCE_SECONDS = 300;

export type SandboxSessionRow = Selectable<SandboxGatewaySessionTable>;
export type SandboxRefundRow = Selectable<SandboxGatewayRefundTable>;

/** Posts a signed notification; answers the HTTP status (the portal's `deliverNotification`). */
export type SandboxDeliver = (
  url: string,
  body: string,
  headers: Record<string, string>,
) => Promise<number>;

export interface SandboxGatewayOptions {
  db: Kysely<Database>;
  /** The portal's public address: the sandbox's page is served by the portal itself. */
  publicUrl: string;
  /** Shared secret of the notification signatures (PAYMENT_SANDBOX_SECRET). */
  secret: string;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
  /** Logs what the sandbox could not notify; the portal may query the refund instead. */
  warn?: (message: string, fields: Record<string, unknown>) => void;
}

const OUTCOMES: readonly string[] = ['PENDING', 'APPROVED', 'DECLINED', 'CANCELLED', 'TIMED_OUT'];

export class SandboxGateway implements PaymentGateway {
  readonly id = 'sandbox';
  private readonly publicUrl: string;
  private deliver: SandboxDeliver | undefined;

  constructor(private options: SandboxGatewayOptions) {
    this.publicUrl = options.publicUrl.replace(/\/+$/, '');
  }

  async createSession(request: SessionRequest): Promise<GatewaySession> {
    checkRequest(request);
    const id = `sbx_${randomBytes(24).toString('base64url')}`;
    await this.options.db
      .insertInto('sandbox_gateway_session')
      .values({
        id,
        order_reference: request.orderReference,
        amount_cents: request.amountCents,
        currency: request.currency,
        description: request.description,
        return_url: request.returnUrl,
        notify_url: request.notifyUrl,
        language: sandboxLanguage(request.language),
      })
      .execute();
    return { sessionId: id, redirectUrl: `${this.publicUrl}/sandbox-gateway/pay/${id}` };
  }

  async querySession(sessionId: string): Promise<GatewayReport> {
    const row = await findSandboxSession(this.options.db, sessionId);
    if (!row) throw new Error(`Unknown sandbox gateway session ${sessionId}`);
    return sandboxReport(row);
  }

  verifyNotification(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): GatewayReport | undefined {
    const header = headerValue(headers, SANDBOX_SIGNATURE_HEADER);
    // Several signature headers are ambiguous: refuse rather than pick one.
    if (typeof header !== 'string') return undefined;
    const now = (this.options.now ?? Date.now)();
    if (!signatureMatches(this.options.secret, rawBody, header, now)) return undefined;
    return parseReport(rawBody);
  }

  /** How the sandbox reaches the portal's notification route (the app exists after the gateway). */
  deliverThrough(deliver: SandboxDeliver, warn?: SandboxGatewayOptions['warn']): void {
    this.deliver = deliver;
    if (warn) this.options.warn = warn;
  }

  /**
   * Records the refund of an approved session, once per idempotency key, then settles it and
   * notifies the portal a moment later, as a bank does. More than what is left of the payment is
   * refused: the gateway keeps its own count, whatever the portal believes.
   */
  async createRefund(request: RefundRequestToGateway): Promise<RefundReport> {
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0)
      throw new Error('Sandbox gateway: a refund is a positive integer of cents');
    const row = await this.options.db.transaction().execute(async (trx) => {
      const session = await trx
        .selectFrom('sandbox_gateway_session')
        .selectAll()
        .where('id', '=', request.sessionId)
        .forUpdate()
        .executeTakeFirst();
      if (!session || session.outcome !== 'APPROVED')
        throw new Error(`Sandbox gateway: session ${request.sessionId} has no payment to refund`);
      const same = await trx
        .selectFrom('sandbox_gateway_refund')
        .selectAll()
        .where('idempotency_key', '=', request.idempotencyKey)
        .executeTakeFirst();
      if (same) return { row: same, created: false };
      if (session.currency !== request.currency)
        throw new Error(`Sandbox gateway: ${request.currency} is not the payment's currency`);
      const { refunded } = await trx
        .selectFrom('sandbox_gateway_refund')
        .select((eb) =>
          eb.fn.coalesce(eb.fn.sum<string>('amount_cents'), eb.val('0')).as('refunded'),
        )
        .where('session_id', '=', session.id)
        .where('outcome', '!=', 'FAILED')
        .executeTakeFirstOrThrow();
      if (Number(refunded) + request.amountCents > Number(session.amount_cents))
        throw new Error(`Sandbox gateway: refund exceeds what is left of ${session.id}`);
      const created = await trx
        .insertInto('sandbox_gateway_refund')
        .values({
          id: `sbx_rf_${randomBytes(18).toString('base64url')}`,
          session_id: session.id,
          refund_reference: request.refundReference,
          idempotency_key: request.idempotencyKey,
          amount_cents: request.amountCents,
          currency: request.currency,
          notify_url: request.notifyUrl,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { row: created, created: true };
    });
    // Settled after the answer, as a bank's refund is: the portal hears of it by notification.
    if (row.created) setTimeout(() => void this.settleRefund(row.row.id), 0);
    return sandboxRefundReport(row.row);
  }

  verifyRefundNotification(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): RefundReport | undefined {
    const header = headerValue(headers, SANDBOX_SIGNATURE_HEADER);
    if (typeof header !== 'string') return undefined;
    const now = (this.options.now ?? Date.now)();
    if (!signatureMatches(this.options.secret, rawBody, header, now)) return undefined;
    return parseRefundReport(rawBody);
  }

  async queryRefund(refundId: string): Promise<RefundReport> {
    const row = await this.options.db
      .selectFrom('sandbox_gateway_refund')
      .selectAll()
      .where('id', '=', refundId)
      .executeTakeFirst();
    if (!row) throw new Error(`Unknown sandbox gateway refund ${refundId}`);
    return sandboxRefundReport(row);
  }

  /** The sandbox refunds every refund it accepted, then tells the portal (signed). */
  private async settleRefund(id: string): Promise<void> {
    const warn = this.options.warn ?? (() => undefined);
    try {
      const row = await this.options.db
        .updateTable('sandbox_gateway_refund')
        .set({ outcome: 'REFUNDED', updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('outcome', '=', 'PENDING')
        .returningAll()
        .executeTakeFirst();
      if (!row || !this.deliver) return;
      const body = JSON.stringify(sandboxRefundReport(row));
      const now = (this.options.now ?? Date.now)();
      const status = await this.deliver(row.notify_url, body, {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signNotification(this.options.secret, body, now),
      });
      if (status < 200 || status >= 300)
        warn('sandbox gateway refund notification refused', { refundId: id, status });
    } catch (error) {
      // The server may be closing; the portal queries a refund it has not heard of.
      warn('sandbox gateway refund notification failed', { refundId: id, err: error });
    }
  }
}

/** The refunds of a session, oldest first (the sandbox's page lists them). */
export async function sandboxRefundsOf(
  db: Kysely<Database>,
  sessionId: string,
): Promise<SandboxRefundRow[]> {
  return db
    .selectFrom('sandbox_gateway_refund')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function sandboxRefundReport(row: SandboxRefundRow): RefundReport {
  return {
    refundId: row.id,
    refundReference: row.refund_reference,
    sessionId: row.session_id,
    outcome: isRefundOutcome(row.outcome) ? row.outcome : 'PENDING',
    amountCents: Number(row.amount_cents),
    currency: row.currency,
  };
}

const REFUND_OUTCOMES: readonly string[] = ['PENDING', 'REFUNDED', 'FAILED'];

function isRefundOutcome(value: unknown): value is RefundOutcome {
  return typeof value === 'string' && REFUND_OUTCOMES.includes(value);
}

/** A refund notification's body, every field checked (a payment's body is not one). */
function parseRefundReport(rawBody: string): RefundReport | undefined {
  let value: unknown;
  try {
    value = JSON.parse(rawBody);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { refundId, refundReference, sessionId, outcome, amountCents, currency } = value as Record<
    string,
    unknown
  >;
  if (!nonEmpty(refundId) || !nonEmpty(refundReference) || !nonEmpty(sessionId)) return undefined;
  if (!nonEmpty(currency) || !isRefundOutcome(outcome)) return undefined;
  if (typeof amountCents !== 'number' || !Number.isSafeInteger(amountCents) || amountCents <= 0)
    return undefined;
  return { refundId, refundReference, sessionId, outcome, amountCents, currency };
}

/** The header value of a notification body: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export function signNotification(secret: string, rawBody: string, now = Date.now()): string {
  const t = Math.floor(now / 1000);
  return `t=${t},v1=${hmac(secret, t, rawBody)}`;
}

export async function findSandboxSession(
  db: Kysely<Database>,
  sessionId: string,
): Promise<SandboxSessionRow | undefined> {
  return db
    .selectFrom('sandbox_gateway_session')
    .selectAll()
    .where('id', '=', sessionId)
    .executeTakeFirst();
}

/** What the sandbox reports about a session, in queries and notifications alike. */
export function sandboxReport(row: SandboxSessionRow): GatewayReport {
  return {
    sessionId: row.id,
    orderReference: row.order_reference,
    outcome: isOutcome(row.outcome) ? row.outcome : 'PENDING',
    // bigint comes back as a string; fees are far below 2^53 cents.
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    ...(row.transaction_id ? { transactionId: row.transaction_id } : {}),
    ...(row.masked_card ? { maskedCard: row.masked_card } : {}),
  };
}

/** The page speaks English or French; anything else falls back to English. */
export function sandboxLanguage(language: string): 'en' | 'fr' {
  return language.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

/** Node lower-cases header names, but a caller may pass them as sent. */
function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | string[] | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function hmac(secret: string, t: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
}

function signatureMatches(secret: string, rawBody: string, header: string, now: number): boolean {
  const parts = new Map(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const t = parts.get('t') ?? '';
  const v1 = parts.get('v1') ?? '';
  if (!/^\d{1,12}$/.test(t) || !/^[0-9a-f]{64}$/.test(v1)) return false;
  const seconds = Number(t);
  if (Math.abs(Math.floor(now / 1000) - seconds) > SANDBOX_SIGNATURE_TOLERANCE_SECONDS)
    return false;
  const expected = Buffer.from(hmac(secret, seconds, rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

/** The notification body, with every field checked: a signed but malformed body is refused too. */
function parseReport(rawBody: string): GatewayReport | undefined {
  let value: unknown;
  try {
    value = JSON.parse(rawBody);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const body = value as Record<string, unknown>;
  const { sessionId, orderReference, outcome, amountCents, currency } = body;
  const { transactionId, maskedCard } = body;
  if (!nonEmpty(sessionId) || !nonEmpty(orderReference) || !nonEmpty(currency)) return undefined;
  if (!isOutcome(outcome)) return undefined;
  if (typeof amountCents !== 'number' || !Number.isSafeInteger(amountCents) || amountCents < 0)
    return undefined;
  if (!optionalString(transactionId) || !optionalString(maskedCard)) return undefined;
  return {
    sessionId,
    orderReference,
    outcome,
    amountCents,
    currency,
    ...(transactionId !== undefined ? { transactionId } : {}),
    ...(maskedCard !== undefined ? { maskedCard } : {}),
  };
}

function checkRequest(request: SessionRequest): void {
  if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0)
    throw new Error(`Sandbox gateway: amount must be positive integer cents`);
  // The page links to returnUrl: only web addresses, never javascript: or data:.
  for (const url of [request.returnUrl, request.notifyUrl]) {
    if (!/^https?:$/.test(new URL(url).protocol))
      throw new Error(`Sandbox gateway: not a web address: ${url}`);
  }
}

function isOutcome(value: unknown): value is GatewayOutcome {
  return typeof value === 'string' && OUTCOMES.includes(value);
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function optionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}
