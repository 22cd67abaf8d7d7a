import type { FastifyInstance } from 'fastify';

/**
 * Posts a gateway notification to its URL. The sandbox runs in the portal's own process, so a
 * notification addressed to the portal itself is handed to it directly (the same route, headers
 * and raw body as over the network); any other address is a real HTTP request.
 */
export async function deliverNotification(
  app: FastifyInstance,
  publicUrl: string,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<number> {
  const target = new URL(url);
  if (target.origin === new URL(publicUrl).origin) {
    const response = await app.inject({
      method: 'POST',
      url: `${target.pathname}${target.search}`,
      payload: body,
      headers,
    });
    return response.statusCode;
  }
  const response = await fetch(target, { method: 'POST', body, headers });
  return response.status;
}
