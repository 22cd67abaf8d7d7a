import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config';
import { challengePlugin } from '../../src/server/challenge/plugin';
import {
  CHALLENGE_LIMITS,
  normaliseDestination,
  verifyChallenge,
} from '../../src/server/challenge/service';
import { notificationsPlugin } from '../../src/server/notifications/plugin';
import { httpSmsProvider } from '../../src/server/notifications/providers';
import { withNotificationTables } from '../../src/server/notifications/tables';
import type { OutboxWorker } from '../../src/server/notifications/worker';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import {
  startPluginHarness,
  startSmsServer,
  type PluginHarness,
  type TestSmsServer,
} from '../support/smtp';

describe.each(databaseKinds())('confirmation codes on %s', (kind) => {
  let api: PluginHarness;
  let sms: TestSmsServer;
  let outbox: OutboxWorker | undefined;
  let token: string;
  let db: ReturnType<typeof withNotificationTables>;
  let serial = 0;

  beforeAll(async () => {
    sms = await startSmsServer();
    api = await startPluginHarness(kind, {
      config: {
        confirmationChannels: {
          mobile: true,
          email: false,
          agency: false,
          agent: false,
          trader: false,
        },
      },
      register: async (app, { db: database, config }) => {
        await app.register(notificationsPlugin, {
          db: database,
          config,
          sms: httpSmsProvider({ url: sms.url, token: 'sms-secret' }),
          mail: null,
          intervalMs: 0,
          onWorker: (w) => (outbox = w),
        });
        await app.register(challengePlugin, { prefix: '/api/challenge', db: database, config });
      },
    });
    db = withNotificationTables(api.db);
    token = await api.tokenFor(['outbox-read']);
  });
  afterAll(async () => {
    await api?.close();
    await sms?.close();
  });

  /** A fresh mobile number per test, so the per-destination limit does not carry over. */
  const newMobile = () => `+64 21 555 ${String(1000 + serial++)}`;
  const compact = (mobile: string) => mobile.replaceAll(' ', '');
  const send = (destination: string, extra: Record<string, unknown> = {}, locale = 'en') =>
    api.call('POST', '/api/challenge', {
      body: { channel: 'mobile', destination, purpose: 'registration', ...extra },
      headers: { locale },
    });
  const check = (id: string, code: string, locale = 'en') =>
    api.call('POST', `/api/challenge/${id}/verify`, { body: { code }, headers: { locale } });
  /** The code as the developer reads it: from the outbox, through GET /api/outbox. */
  const codeFromOutbox = async (mobile: string) => {
    const response = await api.call(
      'GET',
      `/api/outbox?recipient=${encodeURIComponent(compact(mobile))}`,
      { token },
    );
    expect(response.statusCode).toBe(200);
    const [latest] = response.json().items as Array<{ channel: string; body: string }>;
    expect(latest?.channel).toBe('sms');
    return /\b(\d{6})\b/.exec(latest!.body)![1]!;
  };
  const issue = async () => {
    const mobile = newMobile();
    const response = await send(mobile);
    expect(response.statusCode, response.body).toBe(201);
    const { challengeId } = response.json() as { challengeId: string };
    return { mobile, challengeId, code: await codeFromOutbox(mobile) };
  };
  const otherThan = (code: string) => String(((Number(code) - 100_000 + 1) % 900_000) + 100_000);

  it('sends a 6-digit code by SMS through the outbox and answers only an id and an expiry', async () => {
    const mobile = newMobile();
    const before = Date.now();
    const response = await send(mobile);
    expect(response.statusCode, response.body).toBe(201);
    const answer = response.json();
    expect(Object.keys(answer).sort()).toEqual(['challengeId', 'expiresAt', 'message']);
    expect(answer.message).toBe('Confirmation code sent to mobile');
    const expires = Date.parse(answer.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + CHALLENGE_LIMITS.ttlMs - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + CHALLENGE_LIMITS.ttlMs + 1000);

    await outbox!.runOnce();
    const delivered = sms.received.find((m) => m.body.to === compact(mobile));
    expect(delivered?.authorization).toBe('Bearer sms-secret');
    const code = /\b(\d{6})\b/.exec(delivered!.body.text!)![1]!;
    expect(Number(code)).toBeGreaterThanOrEqual(100_000);
    expect(Number(code)).toBeLessThanOrEqual(999_999);
    expect(delivered!.body.text).toContain('expires in 10 minutes');
    expect(await codeFromOutbox(mobile)).toBe(code);

    expect((await check(answer.challengeId, code)).json()).toMatchObject({ valid: true });
  });

  it('writes the message in the language of the request', async () => {
    const mobile = newMobile();
    const response = await send(mobile, {}, 'fr');
    expect(response.json().message).toBe('Code de confirmation envoyé sur le mobile');
    const row = await db
      .selectFrom('outbox')
      .select('body')
      .where('recipient', '=', compact(mobile))
      .executeTakeFirstOrThrow();
    expect(row.body).toMatch(/^Votre code de confirmation .* \d{6}\./);
  });

  it('keeps only an argon2id hash of the code', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) codes.push((await issue()).code);
    const rows = await db.selectFrom('challenge').selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const stored = JSON.stringify(rows);
    for (const code of codes) expect(stored).not.toContain(code);
    for (const row of rows) expect(row.code_hash).toMatch(/^\$argon2id\$/);
    expect(Object.keys(rows[0]!).sort()).toEqual(
      [
        'attempts',
        'channel',
        'code_hash',
        'created_at',
        'destination',
        'expires_at',
        'id',
        'purpose',
        'used_at',
      ].sort(),
    );
  });

  it('checks eagerly without using the code up; the final verification uses it, once', async () => {
    const { challengeId, code, mobile } = await issue();
    expect((await check(challengeId, code)).statusCode).toBe(200);
    expect((await check(challengeId, code)).statusCode).toBe(200);
    // The registration endpoint names what it expects; another number or purpose does not match.
    expect(await verifyChallenge(api.db, challengeId, code, { destination: '+640000000' })).toBe(
      'wrong',
    );
    expect(await verifyChallenge(api.db, challengeId, code, { purpose: 'password-reset' })).toBe(
      'wrong',
    );
    expect(
      await verifyChallenge(api.db, challengeId, code, {
        destination: compact(mobile),
        purpose: 'registration',
      }),
    ).toBe('ok');
    expect(await verifyChallenge(api.db, challengeId, code)).toBe('used');
    const again = await check(challengeId, code);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({
      code: 'CHALLENGE_USED',
      message: 'This confirmation code has already been used, please ask for a new one',
    });
  });

  it('refuses a wrong code with a translated message', async () => {
    const { challengeId, code } = await issue();
    const wrong = await check(challengeId, otherThan(code));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({
      code: 'CHALLENGE_WRONG_CODE',
      message: 'The confirmation code is not correct',
      fields: [{ path: '/code', rule: 'confirmationCode' }],
    });
    const french = await check(challengeId, otherThan(code), 'fr');
    expect(french.json().error.message).toBe("Le code de confirmation n'est pas correct");
    expect(await verifyChallenge(api.db, challengeId, otherThan(code))).toBe('wrong');
    expect(await verifyChallenge(api.db, challengeId, code)).toBe('ok');
    // A code that is not 6 digits is refused before it is compared.
    expect((await check(challengeId, '12ab56')).json().error.code).toBe('VALIDATION_FAILED');
  });

  it('refuses an expired code', async () => {
    const { challengeId, code } = await issue();
    await db
      .updateTable('challenge')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', challengeId)
      .execute();
    expect(await verifyChallenge(api.db, challengeId, code)).toBe('expired');
    const response = await check(challengeId, code);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'CHALLENGE_EXPIRED',
      message: 'The confirmation code has expired, please ask for a new one',
    });
    // An unknown or malformed id is the same answer: there is nothing to check against.
    expect(await verifyChallenge(api.db, '00000000-0000-4000-8000-000000000000', code)).toBe(
      'expired',
    );
    expect((await check('not-an-id', code)).json().error.code).toBe('CHALLENGE_EXPIRED');
  });

  it('locks a code after 5 wrong attempts, even for the right code', async () => {
    const { challengeId, code } = await issue();
    for (let i = 0; i < CHALLENGE_LIMITS.maxAttempts; i++) {
      expect(await verifyChallenge(api.db, challengeId, otherThan(code))).toBe('wrong');
    }
    expect(await verifyChallenge(api.db, challengeId, code)).toBe('locked');
    const response = await check(challengeId, code);
    expect(response.statusCode).toBe(429);
    expect(response.json().error).toMatchObject({
      code: 'CHALLENGE_LOCKED',
      message: 'Too many wrong attempts, please ask for a new confirmation code',
    });
  });

  it('compares at most 5 of many simultaneous guesses', async () => {
    const { challengeId, code } = await issue();
    const guesses = Array.from({ length: 12 }, (_, i) =>
      String(((Number(code) - 100_000 + 1 + i) % 900_000) + 100_000),
    );
    const results = await Promise.all(
      guesses.map((guess) => verifyChallenge(api.db, challengeId, guess, { consume: false })),
    );
    expect(results.filter((r) => r === 'wrong')).toHaveLength(CHALLENGE_LIMITS.maxAttempts);
    expect(results.filter((r) => r === 'locked')).toHaveLength(
      guesses.length - CHALLENGE_LIMITS.maxAttempts,
    );
  });

  it('a right code gives its attempt back', async () => {
    const { challengeId, code } = await issue();
    for (let i = 0; i < CHALLENGE_LIMITS.maxAttempts - 1; i++) {
      expect(await verifyChallenge(api.db, challengeId, otherThan(code))).toBe('wrong');
    }
    expect((await check(challengeId, code)).statusCode).toBe(200);
    expect((await check(challengeId, code)).statusCode).toBe(200);
    expect(await verifyChallenge(api.db, challengeId, code)).toBe('ok');
  });

  it('sends at most 3 codes per destination in 15 minutes', async () => {
    const mobile = newMobile();
    // The same number written differently is the same destination.
    for (const form of [mobile, compact(mobile), mobile.replaceAll(' ', '-')]) {
      expect((await send(form)).statusCode).toBe(201);
    }
    const refused = await send(mobile);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({
      code: 'CHALLENGE_RATE_LIMITED',
      message: 'Too many confirmation codes were sent, please try again in 15 minutes',
    });
    const queued = await db
      .selectFrom('outbox')
      .select('id')
      .where('recipient', '=', compact(mobile))
      .execute();
    expect(queued).toHaveLength(3);
    // Simultaneous requests cannot pass the limit together either.
    const other = newMobile();
    const burst = await Promise.all(Array.from({ length: 6 }, () => send(other)));
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(3);
    expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(3);
    // Codes older than the window no longer count.
    await db
      .updateTable('challenge')
      .set({ created_at: new Date(Date.now() - CHALLENGE_LIMITS.windowMs - 1000) })
      .where('destination', '=', compact(mobile))
      .execute();
    expect((await send(mobile)).statusCode).toBe(201);
  });

  it('refuses a channel that is off, and a destination that is not valid', async () => {
    const off = await api.call('POST', '/api/challenge', {
      body: { channel: 'email', destination: 'ana@example.org', purpose: 'registration' },
    });
    expect(off.statusCode).toBe(400);
    expect(off.json().error).toMatchObject({
      code: 'CHALLENGE_CHANNEL_OFF',
      message: 'Confirmation codes cannot be sent this way',
    });
    const bad = await send('call me maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [
        {
          path: '/destination',
          rule: 'mobileNumber',
          message: 'Enter a valid mobile number, with its country code',
        },
      ],
    });
    const noPurpose = await api.call('POST', '/api/challenge', {
      body: { channel: 'mobile', destination: newMobile() },
    });
    expect(noPurpose.statusCode).toBe(400);
    expect(
      await db.selectFrom('challenge').select('id').where('channel', '=', 'email').execute(),
    ).toHaveLength(0);
  });
});

describe.each(databaseKinds())('confirmation codes by e-mail on %s', (kind) => {
  let api: PluginHarness;
  beforeAll(async () => {
    api = await startPluginHarness(kind, {
      config: {
        confirmationChannels: {
          mobile: false,
          email: true,
          agency: false,
          agent: false,
          trader: false,
        },
      },
      register: (app, { db, config }) =>
        app.register(challengePlugin, { prefix: '/api/challenge', db, config }),
    });
  });
  afterAll(async () => api?.close());

  it('sends the code by e-mail when that channel is on, and not by SMS', async () => {
    const response = await api.call('POST', '/api/challenge', {
      body: { channel: 'email', destination: ' Ana@Example.ORG ', purpose: 'registration' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().message).toBe('Confirmation code sent to email');
    const [row] = await withNotificationTables(api.db).selectFrom('outbox').selectAll().execute();
    expect(row).toMatchObject({
      channel: 'email',
      recipient: 'ana@example.org',
      subject: 'Your confirmation code',
      status: 'PENDING',
    });
    const code = /\b(\d{6})\b/.exec(row!.body)![1]!;
    expect(await verifyChallenge(api.db, response.json().challengeId, code)).toBe('ok');
    const sms = await api.call('POST', '/api/challenge', {
      body: { channel: 'mobile', destination: '+64211234567', purpose: 'registration' },
    });
    expect(sms.json().error.code).toBe('CHALLENGE_CHANNEL_OFF');
  });
});

describe.each(databaseKinds())('confirmation codes to catalogue entries on %s', (kind) => {
  let api: ApiHarness;
  let db: ReturnType<typeof withNotificationTables>;
  beforeAll(async () => {
    // The reference data seeds the agent AG001 (mobile +64 21 555 0101) and the agency LAB
    // (no contact fields); the outbox runs no timer, so queued messages stay to be read.
    api = await startApiServer(
      kind,
      {
        confirmationChannels: {
          mobile: true,
          email: false,
          agency: true,
          agent: true,
          trader: false,
        },
      },
      undefined,
      { intervalMs: 0 },
    );
    db = withNotificationTables(api.server.database.db);
  });
  afterAll(async () => api?.close());

  const send = (channel: string, destination: string) =>
    api.call('POST', '/api/challenge', {
      body: { channel, destination, purpose: 'registration' },
      headers: { locale: 'en' },
    });
  const outbox = (recipient?: string) =>
    db
      .selectFrom('outbox')
      .selectAll()
      .$if(recipient !== undefined, (q) => q.where('recipient', '=', recipient!))
      .execute();

  it("sends the code for an agent's code to the agent's mobile, and it verifies with the same channel and code", async () => {
    const before = (await outbox()).length;
    const response = await send('agent', ' AG001 ');
    expect(response.statusCode, response.body).toBe(201);
    expect(Object.keys(response.json()).sort()).toEqual(['challengeId', 'expiresAt', 'message']);
    expect(response.json().message).toBe(
      'If this code is known, a confirmation code was sent to its registered contact',
    );
    expect(await outbox()).toHaveLength(before + 1);
    const [row] = await outbox('+64215550101');
    expect(row).toMatchObject({ channel: 'sms', recipient: '+64215550101', status: 'PENDING' });
    const code = /\b(\d{6})\b/.exec(row!.body)![1]!;
    const id = response.json().challengeId as string;
    const eager = await api.call('POST', `/api/challenge/${id}/verify`, { body: { code } });
    expect(eager.statusCode, eager.body).toBe(200);
    const destination = normaliseDestination('agent', 'AG001');
    expect(destination).toBe('agent:AG001');
    // Another pair (the same code through the mobile channel) does not match the challenge.
    expect(
      await verifyChallenge(api.server.database.db, id, code, {
        destination: normaliseDestination('mobile', '+64 21 555 0101'),
        consume: false,
      }),
    ).toBe('wrong');
    expect(
      await verifyChallenge(api.server.database.db, id, code, {
        destination,
        purpose: 'registration',
      }),
    ).toBe('ok');
  });

  it('answers an unknown code exactly like a known one and sends nothing', async () => {
    const before = (await outbox()).length;
    const known = await send('agent', 'AG002');
    const unknown = await send('agent', 'NOSUCH1');
    expect(unknown.statusCode, unknown.body).toBe(known.statusCode);
    expect(Object.keys(unknown.json()).sort()).toEqual(Object.keys(known.json()).sort());
    expect(unknown.json().message).toBe(known.json().message);
    expect(await outbox()).toHaveLength(before + 1);
    expect(await outbox('+6795550102')).toHaveLength(1);
    // No code was sent for it, so none verifies; it answers as any wrong code does.
    const wrong = await api.call('POST', `/api/challenge/${unknown.json().challengeId}/verify`, {
      body: { code: '123456' },
    });
    expect(wrong.json().error.code).toBe('CHALLENGE_WRONG_CODE');
    // The unknown code is counted like any destination: the rate limit applies the same.
    for (let i = 1; i < CHALLENGE_LIMITS.perDestination; i++) {
      expect((await send('agent', 'NOSUCH1')).statusCode).toBe(201);
    }
    expect((await send('agent', 'NOSUCH1')).statusCode).toBe(429);
    expect(await outbox()).toHaveLength(before + 1);
  });

  it("sends the code for an agency to the agency's own contact, with the same answer", async () => {
    const response = await send('agency', 'LAB');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().message).toBe(
      'If this code is known, a confirmation code was sent to its registered contact',
    );
    // The Department of Labour's mobile number (seeds/catalogs.json).
    expect(await outbox('+6857230101')).toHaveLength(1);
  });

  it('refuses a catalogue channel that is off, and a code that cannot be one', async () => {
    const off = await send('trader', 'TR001');
    expect(off.statusCode).toBe(400);
    expect(off.json().error.code).toBe('CHALLENGE_CHANNEL_OFF');
    const bad = await send('agent', 'AG 001');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [{ path: '/destination', rule: 'pattern' }],
    });
  });
});

describe.each(databaseKinds())(
  'confirmation codes to agents when that channel is off on %s',
  (kind) => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await startApiServer(kind, {}, undefined, { intervalMs: 0 });
    });
    afterAll(async () => api?.close());

    it('refuses the agent, agency and trader channels by default', async () => {
      for (const [channel, destination] of [
        ['agent', 'AG001'],
        ['agency', 'LAB'],
        ['trader', 'TR001'],
      ] as const) {
        const response = await api.call('POST', '/api/challenge', {
          body: { channel, destination, purpose: 'registration' },
        });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.code).toBe('CHALLENGE_CHANNEL_OFF');
      }
      const rows = await withNotificationTables(api.server.database.db)
        .selectFrom('outbox')
        .select('id')
        .execute();
      expect(rows).toHaveLength(0);
    });
  },
);

describe.each(databaseKinds())('confirmation codes per client address on %s', (kind) => {
  let api: PluginHarness;
  beforeAll(async () => {
    const base = configFromEnv({});
    api = await startPluginHarness(kind, {
      config: {
        identity: {
          ...base.identity,
          codeThrottle: { failures: 5, windowMinutes: 15, blockMinutes: 15, maxBlockMinutes: 60 },
        },
      },
      register: (app, { db, config }) =>
        app.register(challengePlugin, { prefix: '/api/challenge', db, config }),
    });
  });
  afterAll(async () => api?.close());

  it('stops one address asking codes for many numbers, and guessing them, in the person’s language', async () => {
    const ask = (mobile: string) =>
      api.call('POST', '/api/challenge', {
        body: { channel: 'mobile', destination: mobile, purpose: 'registration' },
        headers: { locale: 'fr' },
      });
    const first = await ask('+64 21 777 0001');
    expect(first.statusCode).toBe(201);
    // A wrong code counts too.
    const wrong = await api.call('POST', `/api/challenge/${first.json().challengeId}/verify`, {
      body: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    for (let i = 2; i <= 4; i++) expect((await ask(`+64 21 777 000${i}`)).statusCode).toBe(201);
    const refused = await ask('+64 21 777 0009');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'CHALLENGE_RATE_LIMITED' });
    expect(refused.json().error.message).toMatch(/réessayer dans 15 minutes/);
    const rows = await withNotificationTables(api.db).selectFrom('outbox').select('id').execute();
    expect(rows).toHaveLength(4);
  });
});
