import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { CodeFlow, type TokenSet } from '../support/identity-client';
import { freePort } from '../support/identity-server';

const VISAS = '/api/evisa/visa-application';

/**
 * Only access tokens open the API (ASVS 5.0 V9.2.2, RFC 9068): the ID token carries the same
 * roles for the same audience and travels in logout addresses, and the refresh token is signed
 * by the same keys, yet neither may stand in for an access token; a token without an expiry
 * is refused whoever signed it. The server trusts only its own identity server, as in
 * production, and the tokens are the ones its sign-in gives.
 */
describe.each(databaseKinds())('bearer tokens on %s', (kind) => {
  let api: ApiHarness;
  let publicUrl: string;
  let tokens: TokenSet;

  const list = (token: string) =>
    api.call('PATCH', VISAS, { token, body: { page: 1, itemsPerPage: 1 } });

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    api = await startApiServer(kind, {
      publicUrl,
      demoData: true,
      auth: { issuer: `${publicUrl}/realms/portal`, audience: 'portal' },
    });
    await api.server.listen({ port, host: '127.0.0.1' });
    tokens = await new CodeFlow(publicUrl).signIn('verifier', 'Harbour-Light-9264!');
  }, 300_000);
  afterAll(async () => api?.close());

  it('opens the API to the access token and to neither the ID token nor the refresh token', async () => {
    expect((await list(tokens.access_token)).statusCode).toBe(200);
    expect(tokens.id_token).toBeTruthy();
    for (const other of [tokens.id_token!, tokens.refresh_token!]) {
      const refused = await list(other);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.code).toBe('INVALID_TOKEN');
    }
  });

  it('ends the access token when its session signs out, though it has not expired', async () => {
    const flow = new CodeFlow(publicUrl);
    const own = await flow.signIn('validator', 'Island-Chart-4518!');
    expect((await list(own.access_token)).statusCode).toBe(200);
    // Signing out as keycloak-js does: the logout page, then its confirmation form.
    const params = new URLSearchParams({
      client_id: 'portal',
      post_logout_redirect_uri: `${publicUrl}/`,
      id_token_hint: own.id_token!,
    });
    const page = await flow.browser.fetch(
      `${publicUrl}/realms/portal/protocol/openid-connect/logout?${params}`,
    );
    const html = await page.text();
    const action = /action="([^"]+)"/.exec(html)?.[1] as string;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] as string;
    const confirmed = await flow.browser.fetch(new URL(action, publicUrl).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }),
    });
    expect(confirmed.status).toBe(303);
    const refused = await list(own.access_token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('INVALID_TOKEN');
    // Another person's session goes on.
    expect((await list(tokens.access_token)).statusCode).toBe(200);
  });

  it('answers userinfo for the access token only', async () => {
    const userinfo = (token: string) =>
      fetch(`${publicUrl}/realms/portal/protocol/openid-connect/userinfo`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await userinfo(tokens.access_token)).status).toBe(200);
    expect((await userinfo(tokens.id_token!)).status).toBe(401);
  });
});

/**
 * Tokens minted by a key the server trusts (the test issuer stands for the identity server):
 * one without `exp`, or not typed as an access token, is refused; Keycloak's access tokens,
 * typed in their claims (`typ: Bearer`), are taken, its ID tokens (`typ: ID`) are not.
 */
describe('what the API takes as an access token', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiServer('pglite');
  });
  afterAll(async () => api?.close());

  const claims = { sub: 'officer', groups: ['visa-application-search'] };
  const list = (token: string) =>
    api.call('PATCH', VISAS, { token, body: { page: 1, itemsPerPage: 1 } });

  it('refuses a trusted token that never expires', async () => {
    const forever = await api.issuer.token(claims, { expiresIn: null });
    expect((await list(forever)).statusCode).toBe(401);
    expect((await list(await api.issuer.token(claims))).statusCode).toBe(200);
  });

  it('refuses a token typed as anything but an access token', async () => {
    expect((await list(await api.issuer.token(claims, { typ: 'JWT' }))).statusCode).toBe(401);
    const keycloakAccess = await api.issuer.token({ ...claims, typ: 'Bearer' }, { typ: 'JWT' });
    expect((await list(keycloakAccess)).statusCode).toBe(200);
    const keycloakId = await api.issuer.token({ ...claims, typ: 'ID' }, { typ: 'JWT' });
    expect((await list(keycloakId)).statusCode).toBe(401);
  });
});
