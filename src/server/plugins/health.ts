import type { FastifyInstance } from 'fastify';
import { HEALTH_ROUTES } from '../api-contract/fixed-routes';
import type { DatabaseHandle } from '../db/database';

export interface HealthOptions {
  database: DatabaseHandle;
  /** Digest of the definition set the process loaded: equal on processes that agree. */
  definitionsDigest: string;
}

/**
 * `/api/health`: whether the process can serve, whether its database answers, and which
 * definition set it runs (a deployment checks every process reports the same digest).
 */
export async function healthPlugin(app: FastifyInstance, options: HealthOptions) {
  app.get('/health', HEALTH_ROUTES.health, async (_request, reply) => {
    const up = await options.database.ping();
    return reply.status(up ? 200 : 503).send({
      status: up ? 'ok' : 'unavailable',
      database: { kind: options.database.kind, status: up ? 'up' : 'down' },
      definitions: { digest: options.definitionsDigest },
    });
  });
}
