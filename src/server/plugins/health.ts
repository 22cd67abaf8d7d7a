import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/database';

/** `/api/health`: whether the process can serve, and whether its database answers. */
export async function healthPlugin(app: FastifyInstance, options: { database: DatabaseHandle }) {
  app.get('/health', async (_request, reply) => {
    const up = await options.database.ping();
    return reply.status(up ? 200 : 503).send({
      status: up ? 'ok' : 'unavailable',
      database: { kind: options.database.kind, status: up ? 'up' : 'down' },
    });
  });
}
