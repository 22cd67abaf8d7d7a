import type { FastifyInstance, FastifyReply } from 'fastify';
import { ANY_OBJECT, objectSchema } from '../api-contract/common';
import type { DatabaseHandle } from '../db/database';

export interface HealthOptions {
  database: DatabaseHandle;
  /** Digest of the definition set the process loaded: equal on processes that agree. */
  definitionsDigest: string;
}

/**
 * Readiness, `/api/health` (and `/api/health/ready`): whether the process can serve, its
 * database answers, and its definitions; a balancer sends requests only to a ready process.
 * Liveness, `/api/health/live`: whether the process answers at all, the database not asked; an
 * orchestrator restarts a process that is not live, never one whose database is away.
 */
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
  const ready = async (_request: unknown, reply: FastifyReply) => {
    const up = await options.database.ping();
    return reply.status(up ? 200 : 503).send({
      status: up ? 'ok' : 'unavailable',
      database: { kind: options.database.kind, status: up ? 'up' : 'down' },
      definitions: { digest: options.definitionsDigest },
    });
  };
  app.get('/health', { schema }, ready);
  app.get('/health/ready', { schema: { ...schema, summary: 'Readiness: as /health' } }, ready);
  const live = {
    tags: ['service'],
    summary: 'Liveness: the process answers (the database is not asked)',
    response: {
      200: {
        description: 'Live',
        ...objectSchema(['status'], { status: { type: 'string', enum: ['ok'] } }),
      },
    },
  } as const;
  app.get('/health/live', { schema: live, logLevel: 'warn' }, async () => ({
    status: 'ok' as const,
  }));
}
