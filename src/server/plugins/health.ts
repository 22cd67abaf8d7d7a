import type { FastifyInstance } from 'fastify';
import { HEALTH_ROUTES } from '../api-contract/fixed-routes';
import type { DatabaseHandle } from '../db/database';

/** `/api/health`: whether the process can serve, and whether its database answers. */
export async function healthPlugin(app: FastifyInstance, options: { database: DatabaseHandle }) {
  app.get('/health', HEALTH_ROUTES.health, async (_request, reply) => {
    const up = await options.database.ping();
    return reply.status(up ? 200 : 503).send({
      status: up ? 'ok' : 'unavailable',
      database: { kind: options.database.kind, status: up ? 'up' : 'down' },
    });
  });
}
