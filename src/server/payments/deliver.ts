import type { FastifyInstance } from 'fastify';

/** Posts a gateway notification; one addressed to the portal itself is injected directly. */
export async function deliverNotification(
  app: FastifyInstance,
  publicUrl: string,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<number> {
  const target = new URL(url);
  if (target.origin === new URL(publicUrl).origin) {
    const url = `${target.pathname}${target.search}`;
    return (await app.inject({ method: 'POST', url, payload: body, headers })).statusCode;
  }
  return (await fetch(target, { method: 'POST', body, headers })).status;
}
