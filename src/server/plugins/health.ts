import type { FastifyInstance } from 'fastify';
import { ANY_OBJECT, objectSchema } from '../api-contract/common';
import type { DatabaseHandle } from '../db/database';

export interface HealthOptions {
  database: DatabaseHandle;
  /** Digest of the definition set the process loaded: equal on processes that agree. */
  definitionsDigest: string;
}

/** `/api/health`: whether the process can serve, its database answers, and its definitions. */
export async function healthPlugin(app: FastifyInstance, options: HealthOptions) {
  const schema = {
    tags: ['service'],
    summary: 'Whether the process can serve and its database answers',
    response: {
      200: {
        description: 'Serving',
        ...objectSchema([], {
          status: { type: 'string', enum: ['ok', 'unavailable'] },
          database: objectSchema([], {
            kind: { type: 'string' },
            status: { type: 'string', enum: ['up', 'down'] },
          }),
          definitions: {
            type: 'object',
            description: 'The definition set the process loaded: equal on processes that agree',
            properties: { digest: { type: 'string' } },
          },
        }),
      },
      503: { description: 'The database does not answer', ...ANY_OBJECT },
    },
  } as const;
  app.get('/health', { schema }, async (_request, reply) => {
    const up = await options.database.ping();
    return reply.status(up ? 200 : 503).send({
      status: up ? 'ok' : 'unavailable',
      database: { kind: options.database.kind, status: up ? 'up' : 'down' },
      definitions: { digest: options.definitionsDigest },
    });
  });
}
