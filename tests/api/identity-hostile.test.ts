import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { freePort } from '../support/identity-server';

/**
 * The identity server's endpoints, probed signed out as an attacker would: what once
 * answered 500 now answers a 4xx, and the server stays healthy.
 */
describe('the identity server under hostile requests', () => {
  let api: ApiHarness;
  let realm: string;
  beforeAll(async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    realm = `${publicUrl}/realms/portal/protocol/openid-connect`;
    api = await startApiServer('pglite', { publicUrl });
    await api.server.listen({ port, host: '127.0.0.1' });
  }, 300_000);
  afterAll(async () => api?.close());

  const healthy = async () => expect((await api.call('GET', '/api/health')).statusCode).toBe(200);

  it('answers 400 to a client id with a NUL byte or odd unicode', async () => {
    for (const clientId of ['a%00b', '%00', '%F0%9F%92%A9', 'a'.repeat(5000), '%C0%AF']) {
      const response = await fetch(
        `${realm}/auth?client_id=${clientId}&response_type=code&redirect_uri=x`,
        { redirect: 'manual' },
      );
      expect(response.status, clientId).toBeGreaterThanOrEqual(400);
      expect(response.status, clientId).toBeLessThan(500);
    }
    await healthy();
  });

  it('answers 413 to a token request body past the limit, 400 to a malformed one', async () => {
    const huge = await fetch(`${realm}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&pad=${'x'.repeat(200_000)}`,
    });
    expect(huge.status).toBe(413);
    for (const [type, body] of [
      ['application/json', '{"grant_type":'],
      ['application/x-www-form-urlencoded', '%%%'],
      ['text/plain', 'grant_type=client_credentials'],
    ]) {
      const response = await fetch(`${realm}/token`, {
        method: 'POST',
        headers: { 'content-type': type! },
        body,
      });
      expect(response.status, `${type} ${body}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${type} ${body}`).toBeLessThan(500);
    }
    await healthy();
  });
});
