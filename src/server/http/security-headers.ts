import Fastify, { type FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';

/**
 * The security headers helmet sets with these options (Content-Security-Policy, HSTS,
 * X-Content-Type-Options...), found once by asking helmet on a private server, with and
 * without it. None depends on the request, and @fastify/helmet builds helmet's middleware anew
 * for every request (its directives parsed again): a few percent of a document read.
 */
export async function securityHeaders(options: FastifyHelmetOptions): Promise<[string, string][]> {
  const answer = async (withHelmet: boolean) => {
    const probe = Fastify({ logger: false });
    if (withHelmet) await probe.register(helmet, options);
    probe.get('/', async () => '');
    const response = await probe.inject({ method: 'GET', url: '/' });
    await probe.close();
    return response.headers;
  };
  const [secured, plain] = await Promise.all([answer(true), answer(false)]);
  return Object.entries(secured)
    .filter(([name, value]) => plain[name] === undefined && typeof value === 'string')
    .map(([name, value]) => [name, value as string]);
}

/**
 * Sets helmet's headers on every answer, as helmet itself does (on the raw response, so the
 * identity server's pages, which Fastify hands over whole, get them too).
 */
export async function installSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
): Promise<void> {
  const headers = await securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
