import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, SandboxGatewaySessionTable } from '../../db/schema';
import type {
  GatewayOutcome,
  GatewayReport,
  GatewaySession,
  PaymentGateway,
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

export interface SandboxGatewayOptions {
  db: Kysely<Database>;
  /** The portal's public address: the sandbox's page is served by the portal itself. */
  publicUrl: string;
  /** Shared secret of the notification signatures (PAYMENT_SANDBOX_SECRET). */
  secret: string;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

const OUTCOMES: readonly string[] = ['PENDING', 'APPROVED', 'DECLINED', 'CANCELLED', 'TIMED_OUT'];

export class SandboxGateway implements PaymentGateway {
  readonly id = 'sandbox';
  private readonly publicUrl: string;

  constructor(private readonly options: SandboxGatewayOptions) {
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
