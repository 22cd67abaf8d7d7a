import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { CodeFlow } from '../support/identity-client';
import { freePort } from '../support/identity-server';
import { errorOf, passkeyOptions, postForm } from '../support/passkey-flow';
import { SoftAuthenticator } from '../support/soft-authenticator';

const AGENT = { login: 'agent', password: 'Trade-Wind-7453' };
const SPONSOR = { login: 'sponsor', password: 'Coral-Reef-3187' };
const IDADMIN = { login: 'idadmin', password: 'Key-Keeper-8105!' };
const EVIL = 'http://evil.example';

/**
 * Passkeys (docs/identity.md, "Passkeys and recovery codes") through the real sign-in pages and
 * API, with a software authenticator standing for the browser and the device: registered from
 * the security page's API, used as a second factor after the password and to sign in without
 * one, refused from another origin and when an answer is replayed, removed; a passkey made at
 * sign-in satisfies the administrator's "force two-factor".
 */
describe.each(databaseKinds())('passkeys (%s)', (kind) => {
  let api: ApiHarness;
  let publicUrl: string;
  let token: string;
  let agentId: string;
  const device = () => new SoftAuthenticator(publicUrl);
  let authenticator: SoftAuthenticator;

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, bearer = token) =>
    api.call(method, url, { token: bearer, ...(body === undefined ? {} : { body }) });

  /** A password sign-in up to the page after the password. */
  const afterPassword = async (who: { login: string; password: string }) => {
    const flow = new CodeFlow(publicUrl);
    await flow.start();
    await flow.submit({ username: who.login, password: who.password });
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
    const tokens = await new CodeFlow(publicUrl).signIn(AGENT.login, AGENT.password);
    token = tokens.access_token;
    agentId = String(decodeJwt(token).sub);
    authenticator = device();
  }, 300_000);
  afterAll(async () => api?.close());

  it('registers a passkey from the API, refusing another origin and a used challenge', async () => {
    const options = (
      await call('POST', '/api/account/passkeys/options')
    ).json() as PublicKeyCredentialCreationOptionsJSON;
    expect(options.rp.id).toBe('127.0.0.1');
    expect(options.user.name).toBe(AGENT.login);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required' });

    // Made on another site: refused, nothing kept, and the challenge is spent all the same.
    const forged = device().create(options, EVIL);
    const refused = await call('POST', '/api/account/passkeys', { name: 'Evil', response: forged });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('PASSKEY_NOT_VERIFIED');
    const late = await call('POST', '/api/account/passkeys', {
      name: 'Late',
      response: authenticator.create(options),
    });
    expect(late.statusCode).toBe(400);
    authenticator.credentials.pop();

    const fresh = (await call('POST', '/api/account/passkeys/options')).json();
    const answer = authenticator.create(fresh);
    const blank = await call('POST', '/api/account/passkeys', { name: '  ', response: answer });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.fields[0]).toMatchObject({ path: '/name', rule: 'required' });
    // The refusal of the name changed nothing: the same answer is still good once.
    const made = await call('POST', '/api/account/passkeys', {
      name: 'My laptop',
      response: answer,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ name: 'My laptop', lastUsedAt: null });
    const again = await call('POST', '/api/account/passkeys', { name: 'Twice', response: answer });
    expect(again.statusCode).toBe(400);

    const list = (await call('GET', '/api/account/passkeys')).json();
    expect(list.items.map((p: { name: string }) => p.name)).toEqual(['My laptop']);
    // Another person sees none of them.
    const other = await new CodeFlow(publicUrl).signIn(SPONSOR.login, SPONSOR.password);
    expect(
      (await call('GET', '/api/account/passkeys', undefined, other.access_token)).json(),
    ).toEqual({ items: [] });
    expect(
      (
        await call(
          'DELETE',
          `/api/account/passkeys/${made.json().id}`,
          undefined,
          other.access_token,
        )
      ).statusCode,
    ).toBe(404);
    expect((await api.call('GET', '/api/account/passkeys')).statusCode).toBe(401);
  });

  it('asks for the passkey after the password, and refuses a replayed answer', async () => {
    const flow = await afterPassword(AGENT);
    expect(flow.callback).toBeUndefined();
    expect(flow.page).toContain('Confirm it is you');
    expect(flow.page).toContain('/realms/portal/assets/passkey.js');
    const options = await passkeyOptions<PublicKeyCredentialRequestOptionsJSON>(
      flow,
      'second-factor',
    );
    expect(options.allowCredentials).toHaveLength(1);
    const answer = authenticator.get(options);
    await flow.submit({ method: 'passkey', credential: JSON.stringify(answer) });
    expect(flow.callback?.get('code')).toBeTruthy();
    expect((await flow.exchange()).status).toBe(200);

    // The same answer in another sign-in: its challenge is spent, so it is refused.
    const replay = await afterPassword(AGENT);
    await passkeyOptions(replay, 'second-factor');
    await replay.submit({ method: 'passkey', credential: JSON.stringify(answer) });
    expect(replay.callback).toBeUndefined();
    expect(errorOf(replay.page)).toBe('The passkey could not be verified. Please try again.');
    // From another origin: refused too.
    const evil = authenticator.get(await passkeyOptions(replay, 'second-factor'), EVIL);
    await replay.submit({ method: 'passkey', credential: JSON.stringify(evil) });
    expect(errorOf(replay.page)).toBe('The passkey could not be verified. Please try again.');
    // A passwordless challenge is not good for the second factor.
    const wrongKind = authenticator.get(await passkeyOptions(replay, 'passwordless'));
    await replay.submit({ method: 'passkey', credential: JSON.stringify(wrongKind) });
    expect(replay.callback).toBeUndefined();
    const good = authenticator.get(await passkeyOptions(replay, 'second-factor'));
    await replay.submit({ method: 'passkey', credential: JSON.stringify(good) });
    expect(replay.callback?.get('code')).toBeTruthy();
  });

  it('signs in with the passkey alone, audited, and not from another origin', async () => {
    const flow = new CodeFlow(publicUrl);
    await flow.start();
    expect(flow.page).toContain('Sign in with a passkey');
    const evil = authenticator.get(await passkeyOptions(flow, 'passwordless'), EVIL);
    await postForm(flow, { step: 'passkey-login', credential: JSON.stringify(evil) });
    expect(flow.callback).toBeUndefined();
    expect(errorOf(flow.page)).toBe('The passkey could not be verified. Please try again.');

    const options = await passkeyOptions<PublicKeyCredentialRequestOptionsJSON>(
      flow,
      'passwordless',
    );
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe('required');
    const answer = authenticator.get(options);
    await postForm(flow, { step: 'passkey-login', credential: JSON.stringify(answer) });
    expect(flow.callback?.get('code')).toBeTruthy();
    const tokens = await flow.exchange();
    expect(decodeJwt(tokens.body.access_token).sub).toBe(agentId);

    // Replayed in a new sign-in: refused.
    const replay = new CodeFlow(publicUrl);
    await replay.start();
    await passkeyOptions(replay, 'passwordless');
    await postForm(replay, { step: 'passkey-login', credential: JSON.stringify(answer) });
    expect(replay.callback).toBeUndefined();

    // One line per sign-in, saying how it was proved: the two with the password and the
    // passkey as second factor, then the one with the passkey alone.
    const rows = await api.tables
      .selectFrom('audit_event')
      .select(['actor', 'kind', 'action', 'detail'])
      .where('actor', '=', agentId)
      .where('kind', 'in', ['sign-in', 'account'])
      .orderBy('id')
      .execute();
    const withPasskey = rows.filter(
      (r) => r.kind === 'account' || (r.detail?.factors as string[] | undefined)?.includes('hwk'),
    );
    expect(withPasskey.map((r) => [r.kind, r.action, r.detail?.factors])).toEqual([
      ['account', 'account.passkey-added', undefined],
      ['sign-in', 'sign-in.password', ['pwd', 'hwk']],
      ['sign-in', 'sign-in.password', ['pwd', 'hwk']],
      ['sign-in', 'sign-in.passkey', ['hwk', 'mfa']],
    ]);
  });

  it('removes a passkey: the password alone signs in again', async () => {
    const [passkey] = (await call('GET', '/api/account/passkeys')).json().items;
    expect((await call('DELETE', `/api/account/passkeys/${passkey.id}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/account/passkeys/${passkey.id}`)).statusCode).toBe(404);
    expect((await call('GET', '/api/account/passkeys')).json().items).toEqual([]);
    const flow = await afterPassword(AGENT);
    expect(flow.callback?.get('code')).toBeTruthy();
    // Its answers are refused from now on.
    const gone = new CodeFlow(publicUrl);
    await gone.start();
    const answer = authenticator.get(await passkeyOptions(gone, 'passwordless'));
    await postForm(gone, { step: 'passkey-login', credential: JSON.stringify(answer) });
    expect(gone.callback).toBeUndefined();
  });

  it("satisfies the administrator's forced two-factor with a passkey made at sign-in", async () => {
    const admin = (await new CodeFlow(publicUrl).signIn(IDADMIN.login, IDADMIN.password))
      .access_token;
    const sponsor = await new CodeFlow(publicUrl).signIn(SPONSOR.login, SPONSOR.password);
    const id = String(decodeJwt(sponsor.access_token).sub);
    const base = `/api/connectid/account/${id}`;
    const doc = (await call('GET', base, undefined, admin)).json();
    const forced = await call(
      'POST',
      `${base}/actions/force-two-factor`,
      { version: doc.version },
      admin,
    );
    expect(forced.statusCode, forced.body).toBe(200);

    const flow = await afterPassword(SPONSOR);
    expect(flow.page).toContain('Set up two-factor authentication');
    expect(flow.page).toContain('Set up a passkey instead');
    const sponsorDevice = device();
    const options = await passkeyOptions<PublicKeyCredentialCreationOptionsJSON>(flow, 'register');
    await flow.submit({
      method: 'passkey',
      credential: JSON.stringify(sponsorDevice.create(options)),
    });
    expect(flow.callback?.get('code')).toBeTruthy();
    const after = (await call('GET', base, undefined, admin)).json();
    expect(after.data.security.forceTotp).toBe(false);
    const own = (
      await call('GET', '/api/account/passkeys', undefined, sponsor.access_token)
    ).json();
    expect(own.items).toHaveLength(1);
    // From now on the passkey is the second factor.
    const next = await afterPassword(SPONSOR);
    expect(next.page).toContain('Confirm it is you');
    const proof = sponsorDevice.get(await passkeyOptions(next, 'second-factor'));
    await next.submit({ method: 'passkey', credential: JSON.stringify(proof) });
    expect(next.callback?.get('code')).toBeTruthy();
  });
});
