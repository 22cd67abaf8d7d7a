import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases';
import { copyDefinitions } from '../support/definitions-dir';
import { CodeFlow, type TokenSet } from '../support/identity-client';
import { freePort } from '../support/portal-process';
import {
  startLoadBalancer,
  startServerProcess,
  type LoadBalancer,
  type ServerProcess,
} from '../support/server-processes';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

interface SessionItem {
  id: string;
  device: string;
  browser: string;
  os: string;
  addressClass: string;
  signedInAt: string;
  lastUsedAt: string;
  method: string;
  current: boolean;
}

/** Signs in through the sign-in pages from a browser that says it is `userAgent`. */
async function signIn(
  publicUrl: string,
  login: string,
  password: string,
  headers: Record<string, string>,
): Promise<{ flow: CodeFlow; tokens: TokenSet }> {
  const flow = new CodeFlow(publicUrl);
  await flow.start({}, headers);
  await flow.submit({ username: login, password }, headers);
  const { status, body } = await flow.exchange();
  if (status !== 200) throw new Error(JSON.stringify(body));
  return { flow, tokens: body };
}

const subjectOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;

/** Whether the browser's session cookie alone still signs it in (as a stolen cookie would). */
async function cookieSignsIn(publicUrl: string, from: CodeFlow): Promise<boolean> {
  const replay = new CodeFlow(publicUrl);
  for (const [name, value] of from.browser.cookies) replay.browser.cookies.set(name, value);
  await replay.start();
  return Boolean(replay.callback?.get('code'));
}

/**
 * The security page's sessions (docs/identity.md, "Sessions"): a person lists their own sign-in
 * sessions in words (device, network class, signed in, last used, how), ends one or all the
 * others, and the tokens, refresh tokens and session cookie of an ended session stop working at
 * once; each end, and each sign-in or refused one, is a line of the audit trail.
 */
describe.each(databaseKinds())('account sessions on %s', (kind) => {
  let api: ApiHarness;
  let publicUrl: string;

  const sessionsOf = async (token: string) => {
    const answer = await api.call('GET', '/api/account/sessions', { token });
    expect(answer.statusCode).toBe(200);
    return (answer.json() as { items: SessionItem[] }).items;
  };

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    api = await startApiServer(kind, {
      publicUrl,
      demoData: true,
      auth: { issuer: `${publicUrl}/realms/portal`, audience: 'portal' },
    });
    await api.server.listen({ port, host: '127.0.0.1' });
  }, 300_000);
  afterAll(async () => api?.close());

  it('lists the sessions in words and ends one: its tokens and cookie stop at once', async () => {
    const laptop = await signIn(publicUrl, 'applicant', 'Palm-Breeze-2041', {
      'user-agent': CHROME_LINUX,
    });
    const phone = await signIn(publicUrl, 'applicant', 'Palm-Breeze-2041', {
      'user-agent': SAFARI_IPHONE,
    });
    const other = await signIn(publicUrl, 'verifier', 'Harbour-Light-9264!', {
      'user-agent': FIREFOX_WINDOWS,
    });

    const listed = await sessionsOf(laptop.tokens.access_token);
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({
      device: 'Chrome on Linux',
      browser: 'Chrome',
      os: 'Linux',
      addressClass: 'local',
      method: 'password',
      current: true,
    });
    expect(listed[1]).toMatchObject({ device: 'Safari on iOS', current: false });
    expect(Date.parse(listed[1]!.signedInAt)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(listed[1]!.lastUsedAt)).toBeGreaterThanOrEqual(
      Date.parse(listed[1]!.signedInAt),
    );

    // Someone else's session is not found, and nothing of it changes.
    const [theirs] = await sessionsOf(other.tokens.access_token);
    const refused = await api.call('DELETE', `/api/account/sessions/${theirs!.id}`, {
      token: laptop.tokens.access_token,
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('NOT_FOUND');
    for (const id of ['not-an-id', '00000000-0000-4000-8000-000000000000']) {
      const answer = await api.call('DELETE', `/api/account/sessions/${id}`, {
        token: laptop.tokens.access_token,
      });
      expect(answer.statusCode).toBe(404);
    }
    expect(await sessionsOf(other.tokens.access_token)).toHaveLength(1);

    // The phone was stolen: its session is ended from the laptop.
    expect(await cookieSignsIn(publicUrl, phone.flow)).toBe(true);
    const ended = await api.call('DELETE', `/api/account/sessions/${listed[1]!.id}`, {
      token: laptop.tokens.access_token,
    });
    expect(ended.statusCode).toBe(204);
    const stolen = await api.call('GET', '/api/account/sessions', {
      token: phone.tokens.access_token,
    });
    expect(stolen.statusCode).toBe(401);
    expect((await phone.flow.refresh(phone.tokens.refresh_token!)).status).toBe(400);
    expect(await cookieSignsIn(publicUrl, phone.flow)).toBe(false);
    expect((await sessionsOf(laptop.tokens.access_token)).map((s) => s.device)).toEqual([
      'Chrome on Linux',
    ]);

    const lines = await api.tables
      .selectFrom('audit_event')
      .select(['kind', 'action', 'actor', 'address_class', 'detail'])
      .where('kind', 'in', ['session', 'sign-in'])
      .orderBy('id')
      .execute();
    const applicant = subjectOf(laptop.tokens.access_token);
    expect(
      lines.filter((l) => l.action === 'sign-in.password' && l.actor === applicant),
    ).toHaveLength(2);
    expect(lines.filter((l) => l.action === 'session.end')).toEqual([
      expect.objectContaining({
        kind: 'session',
        actor: applicant,
        address_class: 'local',
        detail: expect.objectContaining({ session: listed[1]!.id, device: 'Safari on iOS' }),
      }),
    ]);
  });

  it('ends every other session and keeps the current one', async () => {
    const here = await signIn(publicUrl, 'validator', 'Island-Chart-4518!', {
      'user-agent': FIREFOX_WINDOWS,
    });
    const away = await Promise.all(
      [CHROME_LINUX, SAFARI_IPHONE].map((ua) =>
        signIn(publicUrl, 'validator', 'Island-Chart-4518!', { 'user-agent': ua }),
      ),
    );
    expect(await sessionsOf(here.tokens.access_token)).toHaveLength(3);
    const answer = await api.call('POST', '/api/account/sessions/end-others', {
      token: here.tokens.access_token,
    });
    expect(answer.json()).toEqual({ ended: 2 });
    for (const { tokens } of away) {
      const refused = await api.call('GET', '/api/account/sessions', {
        token: tokens.access_token,
      });
      expect(refused.statusCode).toBe(401);
    }
    const left = await sessionsOf(here.tokens.access_token);
    expect(left).toEqual([
      expect.objectContaining({ device: 'Firefox on Windows', current: true }),
    ]);
    // Nothing else to end: none ended, the current session still works.
    const again = await api.call('POST', '/api/account/sessions/end-others', {
      token: here.tokens.access_token,
    });
    expect(again.json()).toEqual({ ended: 0 });
  });

  it('records a refused sign-in without keeping an unknown login, and needs a signed-in caller', async () => {
    const flow = new CodeFlow(publicUrl);
    await flow.start();
    await flow.submit({ username: 'approver', password: 'not-the-password' });
    await flow.submit({ username: 'nobody-of-that-name', password: 'whatever-it-is' });
    const lines = await api.tables
      .selectFrom('audit_event')
      .select(['actor_name', 'detail'])
      .where('action', '=', 'sign-in.failed')
      .orderBy('id')
      .execute();
    expect(lines.map((l) => l.detail)).toEqual([
      { reason: 'refused' },
      { reason: 'unknown-login' },
    ]);
    expect(JSON.stringify(lines)).not.toContain('nobody-of-that-name');
    expect((await api.call('GET', '/api/account/sessions')).statusCode).toBe(401);
  });

  it("lists a person's own API credentials as none, a service's as issued by whom", async () => {
    const { tokens } = await signIn(publicUrl, 'idadmin', 'Key-Keeper-8105!', {});
    const admin = tokens.access_token;
    const person = await api.call('GET', '/api/account/api-credentials', { token: admin });
    expect(person.statusCode).toBe(200);
    expect(person.json()).toMatchObject({ service: false, active: false, issuedAt: null });

    // A service account, its credentials issued by the administrator, calls with its own token.
    const created = await api.call('POST', '/api/connectid/account', {
      token: admin,
      body: {
        action: 'create',
        data: {
          identity: { loginIdentifier: 'border-sync', firstName: 'Border', lastName: 'Sync' },
          contact: { emailAddress: 'border-sync@systems.example', primaryMobileNo: '+685 7219901' },
          organisation: { userType: 'SERVICE', serviceAccountName: 'Border Control Sync' },
          access: {
            userGroup: 'OFFICERS',
            accessUnits: ['VERIFICATION'],
            activationStatus: 'active',
          },
        },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const serviceId = (created.json() as { id: string }).id;
    const issued = await api.call('POST', `/api/connectid/account/${serviceId}/api-credentials`, {
      token: admin,
    });
    const { clientSecret } = issued.json() as { clientSecret: string };
    const traded = await fetch(`${publicUrl}/realms/portal/protocol/openid-connect/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${serviceId}:${clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    const service = ((await traded.json()) as TokenSet).access_token;
    const own = await api.call('GET', '/api/account/api-credentials', { token: service });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({
      service: true,
      active: true,
      clientId: serviceId,
      issuedBy: (
        JSON.parse(Buffer.from(admin.split('.')[1]!, 'base64url').toString()) as { name: string }
      ).name,
      revokedAt: null,
    });
    expect(own.body).not.toContain(clientSecret);
    // A service's token belongs to no sign-in session: it has none to list.
    expect(await sessionsOf(service)).toEqual([]);
  });
});

/**
 * The same across two server processes on one PostgreSQL behind a load balancer without sticky
 * sessions: a session ended through process A is refused by process B at once (its memory of
 * ended sessions is told by the change notice), and B lists what A recorded.
 */
describe.runIf(databaseKinds().includes('postgres'))(
  'account sessions across two processes',
  () => {
    let database: TestDatabase;
    let definitions: Awaited<ReturnType<typeof copyDefinitions>>;
    let a: ServerProcess;
    let b: ServerProcess;
    let balancer: LoadBalancer;

    const call = (path: string, token: string, to: 'a' | 'b', method = 'GET') =>
      fetch(`${balancer.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'x-backend': to },
      });

    beforeAll(async () => {
      [database, definitions] = await Promise.all([
        createTestDatabase('postgres'),
        copyDefinitions(),
      ]);
      const balancerPort = await freePort();
      const env = {
        DATABASE_URL: database.databaseUrl!,
        DATABASE_SCHEMA: database.schema!,
        DEFINITIONS_DIR: definitions.dir,
        PUBLIC_URL: `http://127.0.0.1:${balancerPort}`,
        TRUST_PROXY: 'loopback',
        COOKIE_KEYS: 'a-cookie-key-both-processes-of-this-test-share',
        DEMO_DATA: 'true',
      };
      [a, b] = await Promise.all([startServerProcess('a', env), startServerProcess('b', env)]);
      balancer = await startLoadBalancer(balancerPort, [a, b]);
    }, 600_000);

    afterAll(async () => {
      await balancer?.close();
      await Promise.all([a?.stop(), b?.stop()]);
      await definitions?.remove();
      await database?.cleanup();
    }, 120_000);

    it('ends a session through one process and the other refuses its token at once', async () => {
      const from = (address: string, ua: string) => ({
        'user-agent': ua,
        'x-forwarded-for': address,
      });
      const laptop = await signIn(
        balancer.url,
        'applicant',
        'Palm-Breeze-2041',
        from('203.0.113.7', CHROME_LINUX),
      );
      const phone = await signIn(
        balancer.url,
        'applicant',
        'Palm-Breeze-2041',
        from('198.51.100.23', SAFARI_IPHONE),
      );

      const listed = (await (
        await call('/api/account/sessions', laptop.tokens.access_token, 'b')
      ).json()) as {
        items: SessionItem[];
      };
      expect(listed.items.map((s) => [s.device, s.addressClass, s.current])).toEqual([
        ['Chrome on Linux', '203.0.113.0/24', true],
        ['Safari on iOS', '198.51.100.0/24', false],
      ]);
      // Process B has just accepted the phone's token.
      expect((await call('/api/account/sessions', phone.tokens.access_token, 'b')).status).toBe(
        200,
      );

      const ended = await call(
        `/api/account/sessions/${listed.items[1]!.id}`,
        laptop.tokens.access_token,
        'a',
        'DELETE',
      );
      expect(ended.status).toBe(204);
      for (const to of ['b', 'a'] as const)
        expect((await call('/api/account/sessions', phone.tokens.access_token, to)).status).toBe(
          401,
        );
      expect(await cookieSignsIn(balancer.url, phone.flow)).toBe(false);

      // The rest through B: every other session of the laptop's person ends; A refuses them.
      const tablet = await signIn(
        balancer.url,
        'applicant',
        'Palm-Breeze-2041',
        from('203.0.113.9', FIREFOX_WINDOWS),
      );
      const others = await call(
        '/api/account/sessions/end-others',
        laptop.tokens.access_token,
        'b',
        'POST',
      );
      expect(await others.json()).toEqual({ ended: 1 });
      expect((await call('/api/account/sessions', tablet.tokens.access_token, 'a')).status).toBe(
        401,
      );
      expect((await call('/api/account/sessions', laptop.tokens.access_token, 'a')).status).toBe(
        200,
      );
    });
  },
);
