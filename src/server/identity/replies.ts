import type { FastifyReply } from 'fastify';

/** An answer no cache keeps (realm description, sign-in pages, tokens' claims). */
export const noStore = (reply: FastifyReply) =>
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');

/** An HTML page of the identity server, never cached. */
export const html = (reply: FastifyReply, body: string, status = 200) =>
  noStore(reply).status(status).type('text/html; charset=utf-8').send(body);
