import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from './api-error';
import { SharedRateLimit } from './shared-rate-limit';

/**
 * The limit of the public checks (a document by number, a status by share code): they answer
 * about a secret, so each client address may make `perMinute` a minute, counted in the database
 * so every process counts together. Registers the limit on `app` (a plugin's own context) and
 * answers the `config` its limited routes take; none when `perMinute` is 0.
 */
export async function limitPublicChecks(
  app: FastifyInstance,
  db: Kysely<Database>,
  perMinute: number,
): Promise<{ rateLimit?: { max: number; timeWindow: number } }> {
  if (perMinute <= 0) return {};
  const counts = new SharedRateLimit(db);
  const failed = (error: unknown) => app.log.warn({ err: error }, 'rate limit purge failed');
  const purge = setInterval(() => void counts.purge().catch(failed), 10 * 60_000);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));
  await app.register(rateLimit, {
    global: false,
    store: counts.storeClass(),
    errorResponseBuilder: (_request, context) =>
      new ApiProblem(
        429,
        ERROR_CODES.tooManyRequests,
        { seconds: Math.max(1, Math.ceil(context.ttl / 1000)) },
        undefined,
        'dashboard.errors.tooManyChecks',
      ),
  });
  return { rateLimit: { max: perMinute, timeWindow: 60_000 } };
}
