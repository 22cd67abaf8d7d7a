import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addressClass } from '../http/address-class';
import type { ServerMetrics } from './metrics';
import { contextOf, REQUEST_ID_HEADER } from './request-context';

export interface ObservabilityOptions {
  metrics: ServerMetrics;
  /** A bearer token `/metrics` asks for; without one it answers local addresses only. */
  metricsToken?: string;
}

/** Where Prometheus scrapes the process (outside `/api`: not a service of the portal). */
export const METRICS_PATH = '/metrics';

/**
 * Each request measured and traced by its route, its id answered in `X-Request-Id`, and the
 * metrics served to the scraper. Registered at the app's root, before its routes.
 */
export async function installObservability(app: FastifyInstance, options: ObservabilityOptions) {
  const { metrics } = options;
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the address asked: ids in paths would make a series each.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    contextOf(request.raw)?.trace?.answered(route, reply.statusCode);
  });
  app.get(METRICS_PATH, { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    if (!mayScrape(request, options.metricsToken))
      return reply.status(403).type('text/plain').send('forbidden\n');
    const { contentType, body } = await metrics.scrape();
    return reply.type(contentType).send(body);
  });
}

function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  if (!token) return addressClass(request.ip) === 'local';
  const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  const expected = Buffer.from(token);
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
