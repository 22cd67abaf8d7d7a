import { hash } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import {
  CHALLENGE_LIMITS,
  createChallenge,
  normaliseDestination,
  verifyChallenge,
  type ChallengeMessage,
} from '../challenge/service';
import type { Database } from '../db/schema';
import { ApiProblem } from '../http/api-error';
import { HASH_OPTIONS } from './credentials';
import type { ResetChannel } from './reset-pages';

/** The purpose password-reset challenges are stored under (a code for one purpose fits no other). */
export const RESET_PURPOSE = 'password-reset';

/** One-time codes sent by SMS or e-mail and checked once, as the password reset uses them. */
export type OneTimeCodes = ReturnType<typeof challengeCodes>;

/**
 * Password-reset codes through the challenge backend: the same 6-digit codes, argon2id hashes,
 * expiry, attempt limit, single use and per-destination limit as registration's, delivered by
 * the outbox (SMS or e-mail).
 */
export function challengeCodes(db: Kysely<Database>) {
  return {
    ttlMinutes: CHALLENGE_LIMITS.ttlMs / 60_000,
    /** Wrong tries a code takes before it is locked. */
    maxAttempts: CHALLENGE_LIMITS.maxAttempts,
    /** Sends a code (`{{code}}` in `text`); its challenge's id, undefined when none was sent. */
    async send({
      channel,
      destination,
      subject,
      text,
    }: ChallengeMessage & { channel: ResetChannel; destination: string }) {
      const normalised = normaliseDestination(channel, destination);
      if (!normalised) return undefined;
      try {
        const created = await createChallenge(db, {
          channel,
          destination: normalised,
          purpose: RESET_PURPOSE,
          message: { subject, text },
        });
        return created.challengeId;
      } catch (error) {
        // The destination's own limit: nothing is sent, and the page says the same as ever.
        if (error instanceof ApiProblem && error.status === 429) return undefined;
        throw error;
      }
    },
    /** Checks the code of a challenge, using it up when right. */
    verify: (challengeId: string, code: string) =>
      verifyChallenge(db, challengeId, code, { purpose: RESET_PURPOSE }),
    /** Spends the time of a real check (for a username that has no account). */
    async decoy() {
      // The cost of drawing and hashing a real code (createChallenge and verifyChallenge hash).
      await hash('000000', HASH_OPTIONS);
    },
  };
}
