import { hash } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import {
  CHALLENGE_LIMITS,
  createChallenge,
  normaliseDestination,
  verifyChallenge,
} from '../challenge/service';
import type { Database } from '../db/schema';
import { ApiProblem } from '../http/api-error';
import type { OneTimeCodes } from './reset';

/** The purpose password-reset challenges are stored under (a code for one purpose fits no other). */
export const RESET_PURPOSE = 'password-reset';

/**
 * Password-reset codes through the challenge backend: the same 6-digit codes, argon2id hashes,
 * expiry, attempt limit, single use and per-destination limit as registration's, delivered by
 * the outbox (SMS or e-mail).
 */
export function challengeCodes(db: Kysely<Database>): OneTimeCodes {
  return {
    ttlMinutes: CHALLENGE_LIMITS.ttlMs / 60_000,
    maxAttempts: CHALLENGE_LIMITS.maxAttempts,
    async send({ channel, destination, subject, text }) {
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
    verify: (challengeId, code) =>
      verifyChallenge(db, challengeId, code, { purpose: RESET_PURPOSE }),
    async decoy() {
      // The cost of drawing and hashing a real code (createChallenge and verifyChallenge hash).
      await hash('000000', { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    },
  };
}
