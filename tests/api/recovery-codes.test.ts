import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { decodeJwt } from 'jose';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialStore } from '../../src/server/identity/credentials';
import { identityDb } from '../../src/server/identity/tables';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { CodeFlow } from '../support/identity-client';
import { freePort } from '../support/identity-server';
import { errorOf, passkeyOptions } from '../support/passkey-flow';
import { SoftAuthenticator } from '../support/soft-authenticator';

const AGENT = { login: 'agent', password: 'Trade-Wind-7453' };
const SPONSOR = { login: 'sponsor', password: 'Coral-Reef-3187' };
const INVALID = 'This recovery code is not valid or was already used.';

/**
 * Recovery codes (docs/identity.md, "Passkeys and recovery codes"): ten, made from the security
 * page and shown once, kept only hashed; one stands for the second factor once, and the same
 * code a second time is refused; new codes replace the old ones.
 */
describe.each(databaseKinds())('recovery codes (%s)', (kind) => {
  let api: ApiHarness;
  let publicUrl: string;
  let token: string;
  let accountId: string;
  const authenticator = () => new SoftAuthenticator(publicUrl);

  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    api.call(method, url, { token, ...(body === undefined ? {} : { body }) });

  /** A sign-in up to the second factor (the passkey's page). */
  const atSecondFactor = async () => {
    const flow = new CodeFlow(publicUrl);
    await flow.start();
    await flow.submit({ username: AGENT.login, password: AGENT.password });
    expect(flow.page).toContain('Use a recovery code');
    return flow;
  };

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    api = await startApiServer(kind, {
      publicUrl,
      auth: { issuer: `${publicUrl}/realms/portal`, audience: 'portal' },
    });
    await api.server.listen({ port, host: '127.0.0.1' });
    token = (await new CodeFlow(publicUrl).signIn(AGENT.login, AGENT.password)).access_token;
    accountId = String(decodeJwt(token).sub);
    // A second factor to recover from: a passkey.
    const options = (await call('POST', '/api/account/passkeys/options')).json();
    const made = await call('POST', '/api/account/passkeys', {
      name: 'Phone',
      response: authenticator().create(options),
    });
    expect(made.statusCode).toBe(201);
  }, 300_000);
  afterAll(async () => api?.close());

  it('makes ten codes shown once, kept only hashed', async () => {
    expect((await call('GET', '/api/account/recovery-codes')).json()).toEqual({
      remaining: 0,
      createdAt: null,
    });
    const made = await call('POST', '/api/account/recovery-codes');
    expect(made.statusCode).toBe(200);
    expect(made.headers['cache-control']).toBe('no-store');
    const { codes } = made.json() as { codes: string[] };
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const status = (await call('GET', '/api/account/recovery-codes')).json();
    expect(status.remaining).toBe(10);
    expect(status.createdAt).toEqual(expect.any(String));
    expect(JSON.stringify(status)).not.toContain(codes[0]);
    const rows = await api.tables
      .selectFrom('recovery_code')
      .select('code_hash')
      .where('account_id', '=', accountId)
      .execute();
    expect(rows).toHaveLength(10);
    const stored = rows.map((r) => r.code_hash).join(' ');
    for (const code of codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }
  });

  it('takes a code once at the second factor: the same code again is refused', async () => {
    const { codes } = (await call('POST', '/api/account/recovery-codes')).json() as {
      codes: string[];
    };
    const first = await atSecondFactor();
    // Typed in capitals with spaces: the same code.
    const typed = ` ${codes[0]!.toUpperCase().replace('-', ' ')} `;
    await first.submit({ method: 'recovery', recoveryCode: typed });
    expect(first.callback?.get('code')).toBeTruthy();
    expect((await first.exchange()).status).toBe(200);
    expect((await call('GET', '/api/account/recovery-codes')).json().remaining).toBe(9);

    const second = await atSecondFactor();
    await second.submit({ method: 'recovery', recoveryCode: codes[0]! });
    expect(second.callback).toBeUndefined();
    expect(errorOf(second.page)).toBe(INVALID);
    expect(second.page).toContain('<details class="recovery" open>');
    await second.submit({ method: 'recovery', recoveryCode: 'abcde-fghjk' });
    expect(errorOf(second.page)).toBe(INVALID);
    await second.submit({ method: 'recovery', recoveryCode: codes[1]! });
    expect(second.callback?.get('code')).toBeTruthy();

    // Two sign-ins sending the same code at once: one only gets through.
    const [a, b] = await Promise.all([atSecondFactor(), atSecondFactor()]);
    await Promise.all([
      a.submit({ method: 'recovery', recoveryCode: codes[2]! }),
      b.submit({ method: 'recovery', recoveryCode: codes[2]! }),
    ]);
    expect([a, b].filter((flow) => flow.callback?.get('code')).length).toBe(1);
    expect((await call('GET', '/api/account/recovery-codes')).json().remaining).toBe(7);

    // New codes replace the old: an unused old one no longer works.
    await call('POST', '/api/account/recovery-codes');
    const old = await atSecondFactor();
    await old.submit({ method: 'recovery', recoveryCode: codes[3]! });
    expect(errorOf(old.page)).toBe(INVALID);
    // The passkey still does.
    const options = await passkeyOptions<PublicKeyCredentialRequestOptionsJSON>(
      old,
      'second-factor',
    );
    expect(options.allowCredentials).toHaveLength(1);

    await api.server.audit.flush();
    const audited = await api.tables
      .selectFrom('audit_event')
      .select(['actor', 'action'])
      .where('action', 'in', ['sign-in.recovery-code', 'account.recovery-codes-made'])
      .execute();
    expect(audited.filter((r) => r.action === 'sign-in.recovery-code')).toHaveLength(3);
    expect(audited.filter((r) => r.action === 'account.recovery-codes-made')).toHaveLength(3);
    expect(new Set(audited.map((r) => r.actor))).toEqual(new Set([accountId]));
  });

  it("stands for the authenticator app's code too, once", async () => {
    const own = await new CodeFlow(publicUrl).signIn(SPONSOR.login, SPONSOR.password);
    const id = String(decodeJwt(own.access_token).sub);
    const credentials = new CredentialStore(
      identityDb(api.server.database.db),
      api.config.identity,
    );
    const { secret } = await credentials.enrolTotp(id, SPONSOR.login);
    expect(await credentials.confirmTotp(id, await generate({ secret }))).toBe(true);
    const made = await api.call('POST', '/api/account/recovery-codes', { token: own.access_token });
    const [code] = made.json().codes as string[];

    const signIn = async () => {
      const flow = new CodeFlow(publicUrl);
      await flow.start();
      await flow.submit({ username: SPONSOR.login, password: SPONSOR.password });
      expect(flow.page).toContain('Enter the 6-digit code');
      expect(flow.page).toContain('Use a recovery code');
      await flow.submit({ method: 'recovery', recoveryCode: code! });
      return flow;
    };
    expect((await signIn()).callback?.get('code')).toBeTruthy();
    const again = await signIn();
    expect(again.callback).toBeUndefined();
    expect(errorOf(again.page)).toBe(INVALID);
  });
});
