import Fastify, { type FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';

/**
 * The headers helmet sets with these options, found once on a private server: @fastify/helmet
 * builds its middleware anew for every request, a few percent of a document read.
 */
async function securityHeaders(options: FastifyHelmetOptions): Promise<[string, string][]> {
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

/** Sets helmet's headers on the raw response, so the identity server's pages get them too. */
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
