import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChallenge } from '../../src/server/challenge/service';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { notificationsPlugin } from '../../src/server/notifications/plugin';
import { httpSmsProvider, smtpMailProvider } from '../../src/server/notifications/providers';
import { withNotificationTables } from '../../src/server/notifications/tables';
import { startOutbox, type OutboxWorker } from '../../src/server/notifications/worker';
import { databaseKinds } from '../support/databases';
import {
  startPluginHarness,
  startSmsServer,
  startSmtpServer,
  type PluginHarness,
  type TestSmsServer,
  type TestSmtpServer,
} from '../support/smtp';

const FROM = 'Immigration Service <no-reply@immigration.example>';
const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe.each(databaseKinds())('outbox delivery on %s', (kind) => {
  let api: PluginHarness;
  let smtp: TestSmtpServer;
  let sms: TestSmsServer;
  let db: ReturnType<typeof withNotificationTables>;
  let pluginWorker: OutboxWorker | undefined;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    sms = await startSmsServer();
    // The plugin as app.ts will mount it, in the embedded default (no SMTP_URL, no SMS_URL).
    api = await startPluginHarness(kind, {
      register: (app, { db: database, config }) =>
        app.register(notificationsPlugin, {
          db: database,
          config: { ...config, smtpUrl: undefined, smsUrl: undefined },
          intervalMs: 0,
          onWorker: (worker) => (pluginWorker = worker),
        }),
    });
    db = withNotificationTables(api.db);
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
    await sms?.close();
  });

  const queue = async (
    rows: Array<{
      channel: string;
      recipient: string;
      subject?: string;
      body?: string;
      attachments?: unknown;
    }>,
  ) =>
    db
      .insertInto('outbox')
      .values(
        rows.map((r) => ({
          channel: r.channel,
          recipient: r.recipient,
          subject: r.subject ?? 'Subject',
          body: r.body ?? 'Body',
          attachments: r.attachments === undefined ? null : JSON.stringify(r.attachments),
        })),
      )
      .returning('id')
      .execute()
      .then((ids) => ids.map((r) => r.id));
  const row = (id: string) =>
    db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const clear = () => db.deleteFrom('outbox').execute();
  const worker = (options: Partial<Parameters<typeof startOutbox>[0]> = {}) =>
    startOutbox({
      db: api.db,
      mail: smtpMailProvider({ url: smtp.url, from: FROM }),
      sms: httpSmsProvider({ url: sms.url, token: 'sms-secret' }),
      log: silent,
      intervalMs: 0,
      ...options,
    });

  it('keeps e-mail and SMS in the outbox when no provider is configured', async () => {
    await clear();
    const [email, text, inbox] = await queue([
      { channel: 'email', recipient: 'ana@example.org' },
      { channel: 'sms', recipient: '+64211234567' },
      { channel: 'inbox', recipient: 'user-ana' },
    ]);
    const result = await pluginWorker!.runOnce();
    expect(result).toMatchObject({ kept: 2, sent: 0 });
    expect((await row(email!)).status).toBe('KEPT');
    expect((await row(text!)).status).toBe('KEPT');
    expect((await row(inbox!)).status).toBe('PENDING');
    expect(smtp.received).toHaveLength(0);
  });

  it('sends an e-mail with its attachment to a real SMTP server and marks it SENT', async () => {
    await clear();
    smtp.received.length = 0;
    const pdf = Buffer.from('%PDF-1.4\n% test e-visa\n%%EOF\n');
    const [id, inbox] = await queue([
      {
        channel: 'email',
        recipient: 'ana@example.org',
        subject: 'Your e-visa VISA-2026-000001',
        body: 'Your visa application VISA-2026-000001 changed from FORWARDED to ISSUED.\nNotes: welcome',
        attachments: [
          {
            filename: 'e-visa.pdf',
            contentType: 'application/pdf',
            contentBase64: pdf.toString('base64'),
          },
        ],
      },
      { channel: 'inbox', recipient: 'user-ana' },
    ]);
    const w = worker();
    try {
      expect(await w.runOnce()).toMatchObject({ sent: 1, retried: 0, failed: 0 });
    } finally {
      await w.stop();
    }
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(['ana@example.org']);
    expect(mail.from).toBe('no-reply@immigration.example');
    expect(mail.subject).toBe('Your e-visa VISA-2026-000001');
    expect(mail.text).toBe(
      'Your visa application VISA-2026-000001 changed from FORWARDED to ISSUED.\nNotes: welcome',
    );
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({
      filename: 'e-visa.pdf',
      contentType: 'application/pdf',
    });
    expect(mail.attachments[0]!.content.equals(pdf)).toBe(true);
    const sent = await row(id!);
    expect(sent).toMatchObject({ status: 'SENT', attempts: 1, last_error: null });
    expect(sent.attempt_at).toBeInstanceOf(Date);
    expect(sent.sent_at).toBeInstanceOf(Date);
    // The inbox row is the portal's: never delivered, never touched.
    expect(await row(inbox!)).toMatchObject({ status: 'PENDING', attempts: 0, attempt_at: null });
  });

  it('sends an SMS to the HTTP provider with the bearer token', async () => {
    await clear();
    sms.received.length = 0;
    const [id] = await queue([
      {
        channel: 'sms',
        recipient: '+64211234567',
        subject: 'ignored',
        body: 'Your code is 123456',
      },
    ]);
    const w = worker();
    await w.runOnce();
    await w.stop();
    expect(sms.received).toEqual([
      {
        authorization: 'Bearer sms-secret',
        body: { to: '+64211234567', text: 'Your code is 123456' },
      },
    ]);
    expect(await row(id!)).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it('retries a refused e-mail with backoff, then marks it FAILED after 5 attempts', async () => {
    await clear();
    const refusing = await startSmtpServer({ refuse: true });
    const [id] = await queue([{ channel: 'email', recipient: 'bounce@example.org' }]);
    try {
      // With the default backoff the second poll finds nothing due yet.
      const patient = worker({ mail: smtpMailProvider({ url: refusing.url, from: FROM }) });
      expect(await patient.runOnce()).toMatchObject({ retried: 1 });
      const first = await row(id!);
      expect(first).toMatchObject({ status: 'PENDING', attempts: 1 });
      expect(first.last_error).toMatch(/550|Mailbox unavailable/);
      expect(first.next_attempt_at!.getTime()).toBeGreaterThan(Date.now() + 20_000);
      expect(await patient.runOnce()).toMatchObject({ retried: 0, sent: 0, failed: 0 });
      expect(refusing.attempts).toBe(1);
      await patient.stop();

      // Time passes: the retry is due.
      await db
        .updateTable('outbox')
        .set({ next_attempt_at: new Date() })
        .where('id', '=', id!)
        .execute();
      const eager = worker({
        mail: smtpMailProvider({ url: refusing.url, from: FROM }),
        backoffMs: () => 0,
      });
      for (let attempt = 2; attempt <= 4; attempt++) {
        expect(await eager.runOnce()).toMatchObject({ retried: 1 });
        expect(await row(id!)).toMatchObject({ status: 'PENDING', attempts: attempt });
      }
      expect(await eager.runOnce()).toMatchObject({ failed: 1 });
      const failed = await row(id!);
      expect(failed).toMatchObject({ status: 'FAILED', attempts: 5, next_attempt_at: null });
      expect(failed.last_error).toMatch(/550|Mailbox unavailable/);
      expect(await eager.runOnce()).toMatchObject({ retried: 0, failed: 0, sent: 0 });
      expect(refusing.attempts).toBe(5);
      await eager.stop();
    } finally {
      await refusing.close();
    }
  });

  it('a message that failed once is sent on a later attempt', async () => {
    await clear();
    sms.received.length = 0;
    sms.status = 503;
    const [id] = await queue([{ channel: 'sms', recipient: '+64210000001', body: 'Hello' }]);
    const w = worker({ backoffMs: () => 0 });
    try {
      expect(await w.runOnce()).toMatchObject({ retried: 1 });
      expect((await row(id!)).last_error).toMatch(/503/);
      sms.status = 202;
      expect(await w.runOnce()).toMatchObject({ sent: 1 });
    } finally {
      sms.status = 202;
      await w.stop();
    }
    expect(await row(id!)).toMatchObject({ status: 'SENT', attempts: 2, last_error: null });
    expect(sms.received).toHaveLength(1);
  });

  it('never sends a row twice when two workers (two processes) race', async () => {
    await clear();
    smtp.received.length = 0;
    const count = 40;
    await queue(
      Array.from({ length: count }, (_, i) => ({
        channel: 'email',
        recipient: `person${i}@example.org`,
        subject: `Message ${i}`,
      })),
    );
    // On PostgreSQL the second worker has its own connection pool, as another process would.
    let second: DatabaseHandle | undefined;
    if (kind === 'postgres') {
      second = await openDatabase({
        databaseUrl: api.config.databaseUrl,
        schema: api.config.databaseSchema,
        dataDir: api.config.dataDir,
      });
    }
    const a = worker({ batchSize: 7 });
    const b = worker({ batchSize: 7, db: second?.db ?? api.db });
    try {
      for (let round = 0; round < 20; round++) {
        const results = await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
        if (results.every((r) => r.sent === 0)) break;
      }
    } finally {
      await a.stop();
      await b.stop();
      await second?.close();
    }
    const subjects = smtp.received.map((m) => m.subject);
    expect(subjects).toHaveLength(count);
    expect(new Set(subjects).size).toBe(count);
    const statuses = await db.selectFrom('outbox').select(['status', 'attempts']).execute();
    expect(statuses.every((s) => s.status === 'SENT' && s.attempts === 1)).toBe(true);
  });

  describe('developer outbox', () => {
    it('lists every channel to the holder of outbox-read only: it holds other people’s codes', async () => {
      await clear();
      await queue([
        { channel: 'sms', recipient: '+64219999999', body: 'Code 654321' },
        { channel: 'email', recipient: 'dev@example.org', subject: 'Hello dev' },
        { channel: 'inbox', recipient: 'user-ana', subject: 'For Ana only' },
      ]);
      expect((await api.call('GET', '/api/outbox')).statusCode).toBe(401);
      const someone = await api.tokenFor(['view-profile']);
      expect((await api.call('GET', '/api/outbox', { token: someone })).statusCode).toBe(403);
      const token = await api.tokenFor(['outbox-read']);
      const all = await api.call('GET', '/api/outbox', { token });
      expect(all.statusCode).toBe(200);
      expect(all.json().items).toHaveLength(3);
      // The number as the person typed it finds the message sent to its normalised form.
      const typed = await api.call(
        'GET',
        `/api/outbox?recipient=${encodeURIComponent('+64 21 999-9999')}`,
        { token },
      );
      expect(typed.json().items).toEqual([
        expect.objectContaining({ channel: 'sms', recipient: '+64219999999', body: 'Code 654321' }),
      ]);
    });

    it('gives a code only for a message carrying a confirmation code, not for six digits of a notice', async () => {
      await clear();
      // A notice naming a visa (its serial is six digits) and a confirmation code sent.
      await queue([
        {
          channel: 'email',
          recipient: 'holder@example.org',
          body: 'Your visa VIS-2026-000123 was granted.',
        },
      ]);
      await createChallenge(api.db, {
        channel: 'email',
        destination: 'holder@example.org',
        purpose: 'registration',
        message: { subject: 'Your code', text: 'Your confirmation code is {{code}}.' },
      });
      const token = await api.tokenFor(['outbox-read']);
      const items = (await api.call('GET', '/api/outbox', { token })).json().items as Array<{
        body: string;
        code: string | null;
      }>;
      const notice = items.find((item) => item.body.includes('VIS-2026'));
      const confirmation = items.find((item) => item.body.includes('confirmation code'));
      expect(notice?.code).toBeNull();
      expect(confirmation?.code).toMatch(/^\d{6}$/);
      expect(confirmation?.body).toContain(confirmation!.code!);
    });
  });
});

// Each test here opens its own database; they run after the suite above has closed its own, so
// only one test schema exists at a time in this file.
describe.each(databaseKinds())('outbox plugin lifecycle on %s', (kind) => {
  let smtp: TestSmtpServer;
  let sms: TestSmsServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    sms = await startSmsServer();
  });
  afterAll(async () => {
    await smtp?.close();
    await sms?.close();
  });

  it('stops cleanly: a polling worker ends with its app', async () => {
    let running: OutboxWorker | undefined;
    const other = await startPluginHarness(kind, {
      register: (app, { db: database, config }) =>
        app.register(notificationsPlugin, {
          db: database,
          config: { ...config, smtpUrl: smtp.url, smsUrl: sms.url },
          intervalMs: 10,
          onWorker: (w) => (running = w),
        }),
    });
    try {
      await withNotificationTables(other.db)
        .insertInto('outbox')
        .values({ channel: 'email', recipient: 'poll@example.org', subject: 'Polled', body: 'B' })
        .execute();
      const deadline = Date.now() + 10_000;
      while (!smtp.received.some((m) => m.subject === 'Polled') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(smtp.received.some((m) => m.subject === 'Polled')).toBe(true);
      expect(running).toBeDefined();
    } finally {
      await other.close();
    }
  });

  it('does not exist in production', async () => {
    const production = await startPluginHarness(kind, {
      register: (app, { db: database, config }) =>
        app.register(notificationsPlugin, {
          db: database,
          config: { ...config, production: true },
          intervalMs: 0,
        }),
    });
    try {
      const token = await production.tokenFor(['outbox-read']);
      expect((await production.call('GET', '/api/outbox', { token })).statusCode).toBe(404);
      expect((await production.call('GET', '/api/outbox')).statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});
