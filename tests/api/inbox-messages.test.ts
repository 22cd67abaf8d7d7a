import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import { PROJECT_ROOT } from '../../src/server/config';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { insertAccount, messagesAbout } from '../support/inbox';
import { multipartFile } from '../support/multipart';
import {
  startSmsServer,
  startSmtpServer,
  type TestSmsServer,
  type TestSmtpServer,
} from '../support/smtp';
import { visaApplication } from '../support/visa-data';

const VISA = '/api/evisa/visa-application';
const INBOX = '/api/evisa/inbox-message';
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(200, 32),
  Buffer.from('%%EOF\n'),
]);
const MEDIA_LIMIT = 64 * 1024;

interface View {
  id: string;
  version: number;
  status: string;
  owner: string;
  assignee: string | null;
  number: string | null;
  data: Record<string, unknown> & {
    message?: { subject: string; message: string };
    about?: { type: string; id: string; number?: string; path?: string; title?: string };
    delivery?: {
      attempts: number;
      attemptDate?: string;
      channels: Array<{ channel: string; status: string; attempts?: number; error?: string }>;
    };
    characterQuestions?: Array<Record<string, unknown>>;
    documents?: Array<Record<string, unknown>>;
  };
  allowedActions: string[];
}

interface HistoryLine {
  action: string;
  operation: string;
  at: string;
  notes: string | null;
}

/** The texts the holder reads, from the translation files (never written out here). */
async function texts(language: 'en' | 'fr') {
  const read = async (file: string) =>
    JSON.parse(await fs.readFile(path.join(PROJECT_ROOT, 'translations', file), 'utf8')) as Record<
      string,
      never
    >;
  const common = await read(`${language}.json`);
  const visa = await read(`${language}/visa-application.json`);
  return {
    queried: (common.statuses as unknown as Record<string, string>).QUERIED!,
    visaTitle: visa._title as unknown as string,
    greeting: (common.notices as unknown as Record<string, string>).greeting!,
  };
}

/**
 * The inbox (workflows/inbox-message.json): every notice a workflow sends its holder is a
 * message in their inbox, in their language, delivered over real SMTP and the SMS provider's
 * HTTP endpoint by the outbox worker, which the message keeps the attempts of; an officer
 * writes to the holder of a document they see. Nobody else reads or opens a message.
 */
describe.each(databaseKinds())('inbox messages on %s', (kind) => {
  let api: ApiHarness;
  let smtp: TestSmtpServer;
  let sms: TestSmsServer;
  let verifier: string;
  let stranger: string;
  let lonelyWriter: string;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    sms = await startSmsServer();
    api = await startApiServer(
      kind,
      { smtpUrl: smtp.url, smsUrl: sms.url, smsToken: 'sms-secret', mediaMaxBytes: MEDIA_LIMIT },
      serverModules,
      // The test polls the outbox itself, and retries at once: nothing waits on a clock.
      { intervalMs: 0, backoffMs: () => 0 },
    );
    verifier = await api.tokenFor(
      [
        'visa-application-search',
        'visa-application-query',
        'visa-application-read',
        'inbox-message-search',
        'inbox-message-read',
        'inbox-message-send',
      ],
      { sub: 'officer-verifier', name: 'Vera Officer' },
    );
    stranger = await api.tokenFor(
      ['inbox-message-search', 'inbox-message-read', 'visa-application-read'],
      { sub: 'someone-else', name: 'Someone Else' },
    );
    // May write messages, but sees no visa application but their own.
    lonelyWriter = await api.tokenFor(
      ['inbox-message-search', 'inbox-message-read', 'inbox-message-send'],
      { sub: 'writer-without-cases', name: 'Writer' },
    );
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
    await sms?.close();
  });
  beforeEach(() => {
    smtp.refuse = false;
    sms.status = 202;
  });

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, body?: unknown) =>
    api.call(method, url, { token, body });
  const ok = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
    const response = await call(method, url, token, body);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as View;
  };
  const holderToken = (sub: string, claims: Record<string, unknown>) =>
    api.tokenFor(
      [
        'visa-application-submit',
        'visa-application-read',
        'visa-application-pay',
        'inbox-message-search',
        'inbox-message-read',
      ],
      { sub, ...claims },
    );
  const upload = async (token: string, content = PDF) => {
    const { body, contentType } = multipartFile('letter.pdf', 'application/pdf', content);
    return api.app.inject({
      method: 'POST',
      url: '/api/media',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload: body,
    });
  };

  /** A visa application of the holder, submitted and paid: waiting for the verifier. */
  async function paidVisa(token: string, language: 'en' | 'fr' | undefined): Promise<View> {
    const data = visaApplication('VIS', 'VV30');
    if (language)
      data.contact = { ...data.contact, preferredLanguage: language } as typeof data.contact;
    const stored = await ok('POST', VISA, token, { data });
    const file = (await upload(token)).json() as Record<string, unknown>;
    const submitted = await ok('POST', `${VISA}/${stored.id}/actions/submit`, token, {
      version: stored.version,
      data: {
        ...data,
        characterQuestions: stored.data.characterQuestions!.map((q) => ({ ...q, answer: false })),
        documents: stored.data.documents!.map((d) => ({ ...d, file })),
      },
    });
    await ok('POST', `${VISA}/${stored.id}/actions/initiate`, token, {
      version: submitted.version,
      data: { termsAccepted: true },
    });
    await payOnGateway(api, 'visa-application', stored.id, token);
    const paid = await ok('GET', `${VISA}/${stored.id}`, token);
    expect(paid.status).toBe('PAID FOR VERIFICATION');
    return paid;
  }

  async function query(visa: View, notes: string): Promise<View> {
    return ok('POST', `${VISA}/${visa.id}/actions/query`, verifier, {
      version: visa.version,
      notes,
      data: {},
    });
  }

  const history = async (id: string, token: string) =>
    (await call('GET', `${INBOX}/${id}/history`, token)).json() as HistoryLine[];

  it('brings a query to its French holder: a message in French, by e-mail and by SMS, read in the portal', async () => {
    const holder = await holderToken('holder-lea', {
      name: 'Léa Martin',
      email: 'lea.martin@example.org',
      phone_number: '+6857001234',
    });
    const visa = await paidVisa(holder, 'fr');
    const queried = await query(visa, 'Merci de joindre une copie lisible du passeport');
    expect(queried.status).toBe('QUERIED');

    const [notice] = (await messagesAbout(api.server.database.db, visa.id)).slice(-1);
    const fr = await texts('fr');
    const message = await ok('GET', `${INBOX}/${notice!.id}`, holder);
    expect(message).toMatchObject({ status: 'CREATED', owner: 'holder-lea', assignee: null });
    expect(message.data.message!.subject).toBe(`${fr.visaTitle} ${visa.number} : ${fr.queried}`);
    expect(message.data.message!.message).toContain(fr.greeting.replace('{{name}}', 'Léa Martin'));
    expect(message.data.message!.message).toContain(
      'Merci de joindre une copie lisible du passeport',
    );
    // It names the application by number, with a link to the screen where the holder answers.
    expect(message.data.about).toMatchObject({
      type: 'visa-application',
      id: visa.id,
      number: visa.number,
      title: fr.visaTitle,
      path: `/visa/application/replytoquery/${visa.id}`,
    });
    expect(message.data.delivery!.channels.map((c) => [c.channel, c.status])).toEqual([
      ['email', 'PENDING'],
      ['sms', 'PENDING'],
    ]);

    // The outbox delivers it over SMTP and to the SMS provider's endpoint.
    expect(await api.server.outbox.runOnce()).toMatchObject({ sent: 2, failed: 0 });
    const mail = smtp.received.find((m) => m.to.includes('lea.martin@example.org'));
    expect(mail?.subject).toBe(message.data.message!.subject);
    expect(mail?.text).toContain('Merci de joindre une copie lisible du passeport');
    expect(mail?.text).toContain(`/#/visa/application/replytoquery/${visa.id}`);
    const text = sms.received.find((s) => s.body.to === '+6857001234');
    expect(text?.authorization).toBe('Bearer sms-secret');
    expect(text?.body.text).toContain(message.data.message!.subject);
    expect(text?.body.text).toContain(`/#/inbox/message/view/${notice!.id}`);

    const sent = await ok('GET', `${INBOX}/${notice!.id}`, holder);
    expect(sent.status).toBe('SENT');
    expect(sent.data.delivery).toMatchObject({
      attempts: 2,
      attemptDate: expect.any(String),
      channels: [
        { channel: 'email', status: 'SENT', attempts: 1 },
        { channel: 'sms', status: 'SENT', attempts: 1 },
      ],
    });
    expect((await history(notice!.id, holder)).map((h) => [h.action, h.operation])).toEqual([
      ['create', 'NEW -> CREATED'],
      ['send', 'CREATED -> SENT'],
      ['attempt', 'SENT -> SENT'],
    ]);

    // Nobody else reads it, opens it or finds it; ids reveal nothing.
    for (const token of [stranger, verifier]) {
      expect((await call('GET', `${INBOX}/${notice!.id}`, token)).statusCode).toBe(404);
      const opened = await call('POST', `${INBOX}/${notice!.id}/actions/open`, token, {
        version: sent.version,
      });
      expect(opened.statusCode).toBe(404);
      const found = await call('PATCH', INBOX, token, { list: 'find' });
      expect((found.json() as { items: View[] }).items.map((m) => m.id)).not.toContain(notice!.id);
    }

    // The holder's dashboard counts it unread until they open it; then it is READ.
    const before = (await ok('GET', '/api/evisa/dashboard/inbox', holder)) as unknown as {
      unread: number;
      items: Array<{ id: string; status: string }>;
    };
    expect(before.items[0]).toMatchObject({ id: notice!.id, status: 'SENT' });
    const read = await ok('POST', `${INBOX}/${notice!.id}/actions/open`, holder, {
      version: sent.version,
    });
    expect(read.status).toBe('READ');
    const after = (await ok('GET', '/api/evisa/dashboard/inbox', holder)) as unknown as {
      unread: number;
    };
    expect(after.unread).toBe(before.unread - 1);
  });

  it("writes to a holder who chose no language on the document in their account's language", async () => {
    // An account of our directory owns itself; its preferences say French.
    const id = await insertAccount(api.server.database.db, {
      name: 'Paulo Leota',
      email: 'paulo@example.org',
      data: { preferences: { language: 'fr' } },
    });
    const holder = await holderToken(id, { name: 'Paulo Leota', email: 'paulo@example.org' });
    const visa = await paidVisa(holder, undefined);
    await query(visa, 'Merci');
    const [notice] = (await messagesAbout(api.server.database.db, visa.id)).slice(-1);
    const fr = await texts('fr');
    expect(notice!.subject).toBe(`${fr.visaTitle} ${visa.number} : ${fr.queried}`);
    expect(notice!.data.about).toMatchObject({ language: 'fr' });
  });

  it('keeps five failed attempts and their dates, gives FAILED, and delivers on a resend', async () => {
    const holder = await holderToken('holder-tavita', {
      name: 'Tavita Sefo',
      email: 'tavita@example.org',
    });
    const visa = await paidVisa(holder, 'en');
    // What earlier tests left in the outbox is delivered first: the counts below are this message's.
    await api.server.outbox.runOnce();
    await query(visa, 'Please send your bank statement');
    const [notice] = (await messagesAbout(api.server.database.db, visa.id)).slice(-1);
    smtp.refuse = true;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const run = await api.server.outbox.runOnce();
      expect(run).toMatchObject(attempt < 5 ? { retried: 1 } : { failed: 1 });
    }
    const failed = await ok('GET', `${INBOX}/${notice!.id}`, holder);
    expect(failed.status).toBe('FAILED');
    expect(failed.data.delivery).toMatchObject({
      attempts: 5,
      channels: [{ channel: 'email', status: 'FAILED', attempts: 5, error: expect.any(String) }],
    });
    // Each attempt is a line of the message's history, with its date, in order.
    const attempts = (await history(notice!.id, holder)).slice(1);
    expect(attempts.map((h) => h.operation)).toEqual([
      ...Array<string>(4).fill('CREATED -> CREATED'),
      'CREATED -> FAILED',
    ]);
    const dates = attempts.map((h) => new Date(h.at).getTime());
    expect(dates.every((d, i) => Number.isFinite(d) && (i === 0 || d >= dates[i - 1]!))).toBe(true);
    // The last attempt failed: nothing more is tried until someone sends it again.
    expect(await api.server.outbox.runOnce()).toMatchObject({ sent: 0, retried: 0, failed: 0 });
    expect(
      (
        await call('POST', `${INBOX}/${notice!.id}/actions/resend`, stranger, {
          version: failed.version,
        })
      ).statusCode,
    ).toBe(404);

    smtp.refuse = false;
    const again = await ok('POST', `${INBOX}/${notice!.id}/actions/resend`, holder, {
      version: failed.version,
    });
    expect(again.status).toBe('CREATED');
    expect(await api.server.outbox.runOnce()).toMatchObject({ sent: 1 });
    const delivered = await ok('GET', `${INBOX}/${notice!.id}`, holder);
    expect(delivered.status).toBe('SENT');
    expect(smtp.received.some((m) => m.to.includes('tavita@example.org'))).toBe(true);
  });

  it('lets an officer write to the holder of an application they hold, with a file', async () => {
    const holder = await holderToken('holder-mele', {
      name: 'Mele Fa',
      email: 'mele@example.org',
    });
    const visa = await paidVisa(holder, 'en');
    const letter = (await upload(verifier)).json() as Record<string, unknown>;
    const written = await call('POST', INBOX, verifier, {
      action: 'write',
      data: {
        message: {
          subject: 'Your passport copy',
          message: 'Please bring your passport to the office on Monday.',
          note: 'Office hours 9-15',
          attachment: letter,
        },
        about: { type: 'visa-application', id: visa.id },
        // What the server fills is not the writer's to give.
        recipient: { email: 'attacker@example.org' },
      },
    });
    expect(written.statusCode, written.body).toBe(201);
    const message = written.json() as View;
    expect(message).toMatchObject({
      status: 'CREATED',
      owner: 'holder-mele',
      assignee: 'officer-verifier',
      data: {
        about: { type: 'visa-application', id: visa.id, number: visa.number },
        recipient: { email: 'mele@example.org', name: 'Mele Fa' },
        // The service writes to the public, not the officer by name (OFFICER_NAMES_TO_PUBLIC).
        sender: { name: 'Immigration service' },
      },
    });
    // The holder reads it; the writer follows it; nobody else sees it.
    expect((await call('GET', `${INBOX}/${message.id}`, holder)).statusCode).toBe(200);
    expect((await call('GET', `${INBOX}/${message.id}`, verifier)).statusCode).toBe(200);
    expect((await call('GET', `${INBOX}/${message.id}`, stranger)).statusCode).toBe(404);
    // Only its holder opens it.
    const byWriter = await call('POST', `${INBOX}/${message.id}/actions/open`, verifier, {
      version: message.version,
    });
    expect(byWriter.statusCode).toBe(403);

    await api.server.outbox.runOnce();
    const mail = smtp.received.find((m) => m.subject === 'Your passport copy');
    expect(mail?.to).toEqual(['mele@example.org']);
    expect(mail?.text).toContain('Please bring your passport to the office on Monday.');
    expect(mail?.text).toContain('Office hours 9-15');
    expect(mail?.attachments.map((a) => a.filename)).toEqual(['letter.pdf']);
    // The message keeps its delivery, attachment and all; the holder reads the file through it.
    const delivered = await ok('GET', `${INBOX}/${message.id}`, holder);
    expect(delivered.status).toBe('SENT');
    const file = await api.call('GET', `/api/media/${String(letter.id)}`, { token: holder });
    expect(file.statusCode).toBe(200);
    const notTheirs = await api.call('GET', `/api/media/${String(letter.id)}`, { token: stranger });
    expect(notTheirs.statusCode).toBe(404);
  });

  it('refuses a message nobody may send, changing nothing', async () => {
    const holder = await holderToken('holder-iosefa', { email: 'iosefa@example.org' });
    const visa = await paidVisa(holder, 'en');
    const count = async () =>
      (
        await api.tables
          .selectFrom('document')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('type', '=', 'inbox-message')
          .executeTakeFirstOrThrow()
      ).n;
    const before = await count();
    const write = (token: string, data: Record<string, unknown>) =>
      call('POST', INBOX, token, { action: 'write', data });
    const message = { subject: 'Hello', message: 'A message' };
    const about = { type: 'visa-application', id: visa.id };

    // A writer who holds no such document: the holder is not theirs to write to.
    const notHeld = await write(lonelyWriter, { message, about });
    expect(notHeld.statusCode).toBe(400);
    expect(notHeld.json().error.fields).toContainEqual(
      expect.objectContaining({
        path: '/about/id',
        rule: 'heldDocument',
        message: 'You can only write to the holder of a document you hold',
      }),
    );
    for (const named of [
      { type: 'visa-application', id: '00000000-0000-4000-8000-000000000000' },
      { type: 'inbox-message', id: visa.id },
      { type: 'no-such-type', id: visa.id },
    ]) {
      expect((await write(verifier, { message, about: named })).statusCode).toBe(400);
    }
    // An empty subject or message.
    const empty = await write(verifier, { message: { subject: ' ', message: '' }, about });
    expect(empty.statusCode).toBe(400);
    const paths = (empty.json().error.fields as Array<{ path: string }>).map((f) => f.path);
    expect([...new Set(paths)].sort()).toEqual(['/message/message', '/message/subject']);
    // Without inbox-message-send.
    expect((await write(stranger, { message, about })).statusCode).toBe(403);
    // A file that is not the writer's, and one too large to upload at all.
    const theirs = (await upload(holder)).json() as Record<string, unknown>;
    const notMine = await write(verifier, { message: { ...message, attachment: theirs }, about });
    expect(notMine.statusCode).toBe(400);
    const tooLarge = await upload(verifier, Buffer.alloc(MEDIA_LIMIT + 1, 32));
    expect(tooLarge.statusCode).toBe(413);
    // The system's own actions are nobody's.
    expect(
      (await write(verifier, { message, about }).then((r) => r.json() as View)).id,
    ).toBeTruthy();
    const created = await count();
    expect(Number(created)).toBe(Number(before) + 1);
    const latest = (await messagesAbout(api.server.database.db, visa.id)).at(-1)!;
    for (const action of ['send', 'fail', 'attempt']) {
      const refused = await call('POST', `${INBOX}/${latest.id}/actions/${action}`, verifier, {
        version: 1,
      });
      expect(refused.statusCode).toBe(403);
    }
  });
});
