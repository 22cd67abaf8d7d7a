import { createHash } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, importSPKI, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicJwks } from '../../src/server/identity/keys';
import { obtainToken, TokenError } from '../../scripts/token';
import { createTokenVerifier } from '../../src/server/auth/token-verifier';
import { databaseKinds } from '../support/databases';
import { CodeFlow } from '../support/identity-client';
import { startIdentityServer, type IdentityHarness } from '../support/identity-server';

describe.each(databaseKinds())('identity server: code flow (%s)', (kind) => {
  let server: IdentityHarness;

  beforeAll(async () => {
    server = await startIdentityServer(kind);
    server.directory.add({
      id: 'acc-1',
      loginIdentifier: 'alice',
      name: 'Alice Applicant',
      email: 'alice@example.org',
      phoneNumber: '+64211234567',
      locale: 'fr',
      userType: 'APPLICANT',
      roles: ['visa-application-read', 'visa-application-submit'],
    });
    await server.credentials.setPassword('acc-1', 'alice', 'Correct horse 1!', undefined);
  });
  afterAll(async () => server?.close());

  it('signs in with PKCE and issues an RS256 JWT access token for the portal API', async () => {
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    expect(flow.status).toBe(200);
    expect(flow.page).toContain('name="username"');
    expect(flow.page).toContain('/realms/portal/assets/signin.css');
    expect(flow.page).not.toMatch(/<script(?![^>]*src=)/);
    expect(flow.page).not.toMatch(/ on[a-z]+=/);
    await flow.submit({ username: 'alice', password: 'Correct horse 1!' });
    expect(flow.callback?.get('state')).toBe(flow.state);
    const { status, body } = await flow.exchange();
    expect(status).toBe(200);
    expect(body.refresh_token).toBeTruthy();
    // keycloak-js decodes the refresh token too: it must be a JWT (wrapping the opaque one).
    const refreshClaims = JSON.parse(
      Buffer.from(String(body.refresh_token).split('.')[1] ?? '', 'base64url').toString(),
    );
    expect(refreshClaims).toMatchObject({ typ: 'Refresh' });
    expect(typeof refreshClaims.exp).toBe('number');
    expect(body.id_token).toBeTruthy();

    const claims = decodeJwt(body.access_token);
    expect(claims).toMatchObject({
      iss: server.issuer,
      aud: 'portal',
      sub: 'acc-1',
      groups: ['visa-application-read', 'visa-application-submit'],
      locale: 'fr',
      user_type: 'APPLICANT',
      name: 'Alice Applicant',
      preferred_username: 'alice',
      email: 'alice@example.org',
      phone_number: '+64211234567',
    });
    expect(typeof claims.sid).toBe('string');

    // The API's verifier trusts the built-in keys without HTTP.
    const verify = await createTokenVerifier(server.config.auth, await publicJwks(server.db));
    const principal = await verify(body.access_token);
    expect(principal).toMatchObject({
      subject: 'acc-1',
      roles: ['visa-application-read', 'visa-application-submit'],
    });

    // ... and over HTTP through the certs endpoint.
    const remote = createRemoteJWKSet(new URL(`${server.issuer}/protocol/openid-connect/certs`));
    await jwtVerify(body.access_token, remote, { issuer: server.issuer, audience: 'portal' });

    // The ID token carries the profile too, and the nonce.
    const id = decodeJwt(body.id_token as string);
    expect(id).toMatchObject({
      sub: 'acc-1',
      nonce: flow.nonce,
      groups: expect.any(Array),
      preferred_username: 'alice',
      sid: claims.sid,
    });
  });

  it('describes the realm as Keycloak does, with a public key that verifies tokens', async () => {
    const flow = new CodeFlow(server.publicUrl);
    const tokens = await flow.signIn('alice', 'Correct horse 1!');
    const realm = (await (await fetch(server.issuer)).json()) as Record<string, string>;
    expect(realm).toMatchObject({
      realm: 'portal',
      'token-service': `${server.issuer}/protocol/openid-connect`,
      'account-service': `${server.issuer}/account`,
    });
    const key = await importSPKI(
      `-----BEGIN PUBLIC KEY-----\n${realm.public_key}\n-----END PUBLIC KEY-----`,
      'RS256',
    );
    await jwtVerify(tokens.access_token, key, { issuer: server.issuer });
    const discovery = (await (
      await fetch(`${server.issuer}/.well-known/openid-configuration`)
    ).json()) as Record<string, unknown>;
    expect(discovery).toMatchObject({
      issuer: server.issuer,
      authorization_endpoint: `${server.issuer}/protocol/openid-connect/auth`,
      token_endpoint: `${server.issuer}/protocol/openid-connect/token`,
      end_session_endpoint: `${server.issuer}/protocol/openid-connect/logout`,
      jwks_uri: `${server.issuer}/protocol/openid-connect/certs`,
      userinfo_endpoint: `${server.issuer}/protocol/openid-connect/userinfo`,
    });
    const local = createLocalJWKSet(await publicJwks(server.db));
    await jwtVerify(tokens.access_token, local);
  });

  it('refreshes with rotation: the old refresh token stops working', async () => {
    const flow = new CodeFlow(server.publicUrl);
    const tokens = await flow.signIn('alice', 'Correct horse 1!');
    const first = await flow.refresh(tokens.refresh_token as string);
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).toBeTruthy();
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(first.body.access_token)).toMatchObject({ sub: 'acc-1', aud: 'portal' });
    const reused = await flow.refresh(tokens.refresh_token as string);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
  });

  it('answers userinfo with the profile claims for the access token', async () => {
    const flow = new CodeFlow(server.publicUrl);
    const tokens = await flow.signIn('alice', 'Correct horse 1!');
    const response = await fetch(`${server.issuer}/protocol/openid-connect/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      sub: 'acc-1',
      groups: ['visa-application-read', 'visa-application-submit'],
      name: 'Alice Applicant',
      preferred_username: 'alice',
      locale: 'fr',
      user_type: 'APPLICANT',
      email: 'alice@example.org',
      phone_number: '+64211234567',
    });
    const bad = await fetch(`${server.issuer}/protocol/openid-connect/userinfo`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.status).toBe(401);
  });

  it('requires PKCE with S256 and redirect URIs on the portal origin', async () => {
    const flow = new CodeFlow(server.publicUrl);
    const noPkce = await flow.browser.fetch(
      flow
        .authorizeUrl({ code_challenge: '', code_challenge_method: '' })
        .replace(/&code_challenge=&code_challenge_method=/, ''),
    );
    expect(noPkce.headers.get('location') ?? '').toContain('error=invalid_request');
    const plain = await flow.browser.fetch(flow.authorizeUrl({ code_challenge_method: 'plain' }));
    expect(plain.headers.get('location') ?? '').toContain('error=invalid_request');
    const foreign = await flow.browser.fetch(
      flow.authorizeUrl({ redirect_uri: 'https://evil.example/' }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('location')).toBeNull();
    // Any page of the portal is a valid redirect (keycloak-js sends the current address).
    const deep = new CodeFlow(
      server.publicUrl,
      'portal',
      'portal',
      `${server.publicUrl}/documents/visa`,
    );
    await deep.start();
    await deep.submit({ username: 'alice', password: 'Correct horse 1!' });
    expect((await deep.exchange()).status).toBe(200);
  });

  it('signs out through RP-initiated logout after a confirmation page', async () => {
    const flow = new CodeFlow(server.publicUrl);
    const tokens = await flow.signIn('alice', 'Correct horse 1!');
    const sid = decodeJwt(tokens.access_token).sid as string;
    const status = async () => {
      const response = await flow.browser.fetch(
        `${server.issuer}/protocol/openid-connect/login-status-iframe.html/init?client_id=portal&origin=${encodeURIComponent(server.publicUrl)}`,
      );
      expect(response.status).toBe(200);
      return ((await response.json()) as { sid: string | null }).sid;
    };
    // The login-status frame as served: the session's id for keycloak-js' first check.
    const frameSid = async () => {
      const response = await flow.browser.fetch(
        `${server.issuer}/protocol/openid-connect/login-status-iframe.html`,
      );
      const html = await response.text();
      expect(html).toContain(`data-client="portal" data-origin="${server.publicUrl}"`);
      return /data-sid="([^"]*)"/.exec(html)?.[1];
    };
    expect(await status()).toBe(sid);
    expect(await frameSid()).toBe(sid);

    const params = new URLSearchParams({
      client_id: 'portal',
      post_logout_redirect_uri: `${server.publicUrl}/`,
      id_token_hint: tokens.id_token as string,
    });
    // The portal asks in its own language (`ui_locales`); the page offers EN / FR like the
    // sign-in page, each asking for the same page again in that language.
    const french = await flow.browser.fetch(
      `${server.issuer}/protocol/openid-connect/logout?${params}&ui_locales=fr`,
    );
    const frenchHtml = await french.text();
    expect(frenchHtml).toContain('<html lang="fr">');
    expect(frenchHtml).toContain('Voulez-vous vous déconnecter ?');
    const switchTo = (language: string) =>
      new RegExp(
        `<nav aria-label="[^"]+"><a href="([^"]+)" lang="en"[^>]*>EN</a><a href="([^"]+)" lang="fr"`,
      )
        .exec(frenchHtml)
        ?.[language === 'en' ? 1 : 2]?.replaceAll('&amp;', '&');
    expect(switchTo('fr')).toContain('lang=fr');
    const logoutUrl = new URL(switchTo('en') as string, server.publicUrl).href;
    expect(logoutUrl).toContain('id_token_hint=');
    const page = await flow.browser.fetch(logoutUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('id="op.logoutForm"');
    expect(html).toContain('Do you want to sign out?');
    expect(html).not.toMatch(/<script(?![^>]*src=)/);
    const action = /action="([^"]+)"/.exec(html)?.[1] as string;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] as string;
    const confirm = await flow.browser.fetch(new URL(action, server.publicUrl).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }),
    });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(`${server.publicUrl}/`);
    expect(await status()).toBeNull();
    expect(await frameSid()).toBe('');
    // The session's refresh token died with it.
    expect((await flow.refresh(tokens.refresh_token as string)).status).toBe(400);
  });

  it("serves keycloak-js' frames with their one script inline, allowed by its hash only", async () => {
    for (const page of [
      'login-status-iframe.html',
      '3p-cookies/step1.html',
      '3p-cookies/step2.html',
    ]) {
      const response = await fetch(`${server.issuer}/protocol/openid-connect/${page}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts, page).toHaveLength(1);
      const [, attributes, body] = scripts[0]!;
      expect(attributes, page).toBe('');
      const hash = createHash('sha256').update(body!).digest('base64');
      const policy = response.headers.get('content-security-policy') ?? '';
      const directives = policy.split(';').map((part) => part.trim());
      expect(directives, page).toContain(`script-src 'sha256-${hash}'`);
      expect(directives, page).toContain("default-src 'none'");
      expect(directives, page).toContain("frame-ancestors 'self'");
    }
    const foreign = await fetch(
      `${server.issuer}/protocol/openid-connect/login-status-iframe.html/init?client_id=portal&origin=https%3A%2F%2Fevil.example`,
    );
    expect(foreign.status).toBe(403);
    const anonymous = await fetch(
      `${server.issuer}/protocol/openid-connect/login-status-iframe.html/init?client_id=portal&origin=${encodeURIComponent(server.publicUrl)}`,
    );
    expect(await anonymous.json()).toEqual({ sid: null });
  });

  it('gives no token to an account that may not sign in', async () => {
    server.directory.add({ id: 'acc-off', loginIdentifier: 'olga', roles: ['x'] });
    await server.credentials.setPassword('acc-off', 'olga', 'Olga password 1!', undefined);
    const flow = new CodeFlow(server.publicUrl);
    await flow.start();
    await flow.submit({ username: 'olga', password: 'Olga password 1!' });
    expect(flow.callback).toBeDefined();
    const tokens = await flow.exchange();
    expect(tokens.status).toBe(200);
    // Deactivated afterwards: no refresh, no userinfo.
    server.directory.add({ id: 'acc-off', loginIdentifier: 'olga', canSignIn: false });
    expect((await flow.refresh(tokens.body.refresh_token as string)).status).toBe(400);
    const again = new CodeFlow(server.publicUrl);
    await again.start();
    await again.submit({ username: 'olga', password: 'Olga password 1!' });
    expect(again.callback).toBeUndefined();
    expect(again.page).toContain('Invalid username or password.');
  });

  it('keeps keys and sessions across a restart', async () => {
    const flow = new CodeFlow(server.publicUrl);
    const tokens = await flow.signIn('alice', 'Correct horse 1!');
    const before = await publicJwks(server.db);
    await server.restart();
    expect(await publicJwks(server.db)).toEqual(before);
    const remote = createRemoteJWKSet(new URL(`${server.issuer}/protocol/openid-connect/certs`));
    await jwtVerify(tokens.access_token, remote, { issuer: server.issuer, audience: 'portal' });
    // Still signed in: a silent (prompt=none) authorization gives a new code.
    const silent = new CodeFlow(server.publicUrl);
    for (const [name, value] of flow.browser.cookies) silent.browser.cookies.set(name, value);
    await silent.start({ prompt: 'none' });
    expect(silent.callback?.get('code')).toBeTruthy();
    expect((await silent.exchange()).status).toBe(200);
    expect((await flow.refresh(tokens.refresh_token as string)).status).toBe(200);
  });
  it('gives a token to scripts/token.ts through the real code flow', async () => {
    const tokens = await obtainToken({
      portalUrl: server.publicUrl,
      username: 'alice',
      password: 'Correct horse 1!',
    });
    expect(decodeJwt(tokens.access_token)).toMatchObject({ sub: 'acc-1', aud: 'portal' });
    await expect(
      obtainToken({ portalUrl: server.publicUrl, username: 'alice', password: 'wrong' }),
    ).rejects.toThrow(new TokenError('Invalid username or password.'));
  });
});
