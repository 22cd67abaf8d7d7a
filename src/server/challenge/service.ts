import { UUID } from '../db/ids';
import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { sql, type Kysely } from 'kysely';
import { validEntry } from '../catalog/valid-at';
import type { Database } from '../db/schema';
import { ApiProblem } from '../http/api-error';
import { HASH_OPTIONS } from '../identity/credentials';
import { withNotificationTables } from '../notifications/tables';
import { enqueue } from '../notifications/outbox';
import { wakeOutbox } from '../notifications/worker';

/** Error codes of the challenge backend; messages are `errors.<code>` in translations/. */
export const CHALLENGE_ERRORS = {
  channelOff: 'CHALLENGE_CHANNEL_OFF',
  wrong: 'CHALLENGE_WRONG_CODE',
  expired: 'CHALLENGE_EXPIRED',
  used: 'CHALLENGE_USED',
  locked: 'CHALLENGE_LOCKED',
  rateLimited: 'CHALLENGE_RATE_LIMITED',
} as const;

/**
 * mobile and email send to the destination given; agency, agent and trader send to the contact
 * of the catalogue entry (of the catalogue of that name) whose code is the destination.
 */
export const CHALLENGE_CHANNELS = ['mobile', 'email', 'agency', 'agent', 'trader'] as const;
export type ChallengeChannel = (typeof CHALLENGE_CHANNELS)[number];
export type CatalogueChannel = Exclude<ChallengeChannel, 'mobile' | 'email'>;

export function isCatalogueChannel(channel: ChallengeChannel): channel is CatalogueChannel {
  return channel in CATALOGUE_CONTACT;
}

export const CHALLENGE_LIMITS = {
  /** A code is valid this long. */
  ttlMs: 10 * 60_000,
  /** Verification attempts that may fail before the code is locked. */
  maxAttempts: 5,
  /** Codes per destination within the window. */
  perDestination: 3,
  windowMs: 15 * 60_000,
} as const;

export type VerifyResult = 'ok' | 'wrong' | 'expired' | 'used' | 'locked';

/** Where a code goes: an outbox channel and its recipient. */
export interface ChallengeDelivery {
  channel: 'sms' | 'email';
  recipient: string;
}

/** A catalogue code as a destination: printable, no spaces, at most the catalogues' 17. */
const CATALOGUE_CODE = /^[^\s]{1,17}$/;

/**
 * A destination as stored and compared: a compact phone number, a lower-cased e-mail address,
 * or `<channel>:<code>` for a catalogue channel. Undefined when not valid.
 */
export function normaliseDestination(
  channel: ChallengeChannel,
  destination: string,
): string | undefined {
  const value = destination.trim();
  if (isCatalogueChannel(channel)) {
    return CATALOGUE_CODE.test(value) ? `${channel}:${value}` : undefined;
  }
  if (channel === 'mobile') {
    const compact = value.replace(/[\s().-]/g, '');
    return /^\+?[0-9]{6,15}$/.test(compact) ? compact : undefined;
  }
  const email = value.toLowerCase();
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : undefined;
}

/** The fields of each catalogue holding its entry's mobile number and e-mail address. */
const CATALOGUE_CONTACT: Record<CatalogueChannel, { mobile: string; email: string }> = {
  // The agency catalogue has no contact fields today; an entry that gains them is used.
  agency: { mobile: 'mobileNumber', email: 'emailAddress' },
  agent: { mobile: 'mobileNumber', email: 'emailAddress' },
  trader: { mobile: 'telephone', email: 'email' },
};

/** Where a catalogue channel's code goes: the valid entry's mobile (SMS), else its e-mail. */
export async function catalogueDelivery(
  db: Kysely<Database>,
  channel: CatalogueChannel,
  code: string,
  at: Date = new Date(),
): Promise<ChallengeDelivery | undefined> {
  const entry = await validEntry(db, channel, code, at);
  if (!entry) return undefined;
  const fields = CATALOGUE_CONTACT[channel];
  const mobile = entry[fields.mobile];
  const sms = typeof mobile === 'string' ? normaliseDestination('mobile', mobile) : undefined;
  if (sms) return { channel: 'sms', recipient: sms };
  const address = entry[fields.email];
  const email = typeof address === 'string' ? normaliseDestination('email', address) : undefined;
  return email ? { channel: 'email', recipient: email } : undefined;
}

export interface ChallengeMessage {
  subject: string;
  /** The message, with `{{code}}` where the code goes. */
  text: string;
}

export interface CreateChallengeInput {
  channel: ChallengeChannel;
  /** Already normalised (normaliseDestination). */
  destination: string;
  purpose: string;
  message: ChallengeMessage;
  /**
   * Where the code goes; by default the destination itself (mobile: SMS, email: e-mail). Null
   * sends nothing: the challenge is still kept (and counted), so the answer is the same as for
   * a code sent, and no code ever matches it.
   */
  delivery?: ChallengeDelivery | null;
  now?: Date;
}

/**
 * Draws a code, keeps its hash and queues the message in the same transaction. The count of
 * recent codes for the destination is taken under a transaction-scoped advisory lock on it, so
 * two simultaneous requests cannot both pass the limit. 429 when the limit is reached.
 */
export async function createChallenge(
  database: Kysely<Database>,
  input: CreateChallengeInput,
): Promise<{ challengeId: string; expiresAt: string }> {
  const db = withNotificationTables(database);
  const now = input.now ?? new Date();
  const code = String(randomInt(100_000, 1_000_000));
  const codeHash = await hash(code, HASH_OPTIONS);
  const expiresAt = new Date(now.getTime() + CHALLENGE_LIMITS.ttlMs);
  // By default mobile and email send to the destination; a catalogue channel needs its entry's
  // contact (catalogueDelivery): none given, none sent.
  const delivery: ChallengeDelivery | null =
    input.delivery !== undefined || isCatalogueChannel(input.channel)
      ? (input.delivery ?? null)
      : { channel: input.channel === 'mobile' ? 'sms' : 'email', recipient: input.destination };
  const id = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`challenge:${input.destination}`}))`.execute(
      trx,
    );
    const recent = await trx
      .selectFrom('challenge')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('destination', '=', input.destination)
      .where('created_at', '>', new Date(now.getTime() - CHALLENGE_LIMITS.windowMs))
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= CHALLENGE_LIMITS.perDestination) {
      throw new ApiProblem(429, CHALLENGE_ERRORS.rateLimited, {
        minutes: CHALLENGE_LIMITS.windowMs / 60_000,
      });
    }
    const row = await trx
      .insertInto('challenge')
      .values({
        channel: input.channel,
        destination: input.destination,
        purpose: input.purpose,
        code_hash: codeHash,
        expires_at: expiresAt,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (delivery) {
      await enqueue(trx, [
        {
          channel: delivery.channel,
          recipient: delivery.recipient,
          subject: input.message.subject,
          body: input.message.text.replaceAll('{{code}}', code),
          code,
        },
      ]);
    }
    return row.id;
  });
  if (delivery) wakeOutbox(database);
  return { challengeId: id, expiresAt: expiresAt.toISOString() };
}

export interface VerifyOptions {
  /** Use the code up when it is right (the final step, e.g. registration). Default true. */
  consume?: boolean;
  /** When given, a challenge sent to another destination or for another purpose is 'wrong'. */
  destination?: string;
  purpose?: string;
  now?: Date;
}

/**
 * Checks a code. An attempt is reserved before the hash is compared, so simultaneous guesses
 * get no more than the maximum; a right code gives it back and, with consume, is used once.
 */
export async function verifyChallenge(
  database: Kysely<Database>,
  challengeId: string,
  code: string,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
  const db = withNotificationTables(database);
  const now = options.now ?? new Date();
  const consume = options.consume ?? true;
  if (!UUID.test(challengeId)) return 'expired';
  const reserved = await db
    .updateTable('challenge')
    .set({ attempts: sql`attempts + 1` })
    .where('id', '=', challengeId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', CHALLENGE_LIMITS.maxAttempts)
    .returning(['code_hash', 'destination', 'purpose'])
    .executeTakeFirst();
  if (!reserved) {
    const row = await db
      .selectFrom('challenge')
      .select(['used_at', 'expires_at', 'attempts'])
      .where('id', '=', challengeId)
      .executeTakeFirst();
    if (!row) return 'expired';
    if (row.used_at) return 'used';
    if (row.expires_at <= now) return 'expired';
    return 'locked';
  }
  const matches =
    /^[0-9]{6}$/.test(code) &&
    (options.destination === undefined || options.destination === reserved.destination) &&
    (options.purpose === undefined || options.purpose === reserved.purpose) &&
    (await verify(reserved.code_hash, code).catch(() => false));
  if (!matches) return 'wrong';
  const settled = await db
    .updateTable('challenge')
    .set({
      attempts: sql`attempts - 1`,
      ...(consume ? { used_at: now } : {}),
    })
    .where('id', '=', challengeId)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  // Another request used the code between the two statements.
  return settled ? 'ok' : 'used';
}

/** The ApiProblem for a failed verification (for endpoints that answer it). */
export function verifyProblem(result: Exclude<VerifyResult, 'ok'>): ApiProblem {
  if (result === 'wrong') {
    const field = { path: '/code', rule: 'confirmationCode' };
    return new ApiProblem(400, CHALLENGE_ERRORS.wrong, {}, [field]);
  }
  return new ApiProblem(result === 'locked' ? 429 : 400, CHALLENGE_ERRORS[result]);
}
