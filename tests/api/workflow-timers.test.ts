import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { allTables } from '../support/all-tables';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { messagesAbout } from '../support/inbox';
import { applicationsThrough, signedPersona, type SignedPersona } from '../support/personas';
import {
  invoiceData,
  submittedSponsorship,
  submittedVisa,
} from '../support/submitted-applications';
import { startTimers } from '../../src/server/documents/timers';

/**
 * The workflows' durable timers (docs/workflows.md, "Timers"), driven by a clock the test holds:
 * the worker's `runOnce(now)` with a `now` days ahead. A query left unanswered lapses to NO REPLY
 * after 28 days, its holder reminded 7 and 1 days before in their language, each once; a reply
 * after the lapse is refused; an unpaid invoice expires and releases its applications; a
 * sponsorship expires on its expiry date; two workers fire a timer once; a timer racing an
 * officer's action: one wins, nothing lost.
 */
const VISAS = '/api/evisa/visa-application';
const SPONSORS = '/api/evisa/sponsor-application';
const INVOICES = '/api/evisa/payment-invoice';
const DAY = 24 * 60 * 60 * 1000;

type View = {
  id: string;
  version: number;
  status: string;
  number: string;
  data: Record<string, unknown>;
  timers?: Array<{ name: string; dueAt: string }>;
};

const inDays = (days: number, from = new Date()) => new Date(from.getTime() + days * DAY);

describe.each(databaseKinds())('workflow timers on %s', (kind) => {
  let api: ApiHarness;
  let applicant: SignedPersona;
  let officer: string;
  let sponsorOfficer: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    applicant = await signedPersona(api, 'applicant');
    officer = await api.tokenFor(
      ['search', 'read', 'query', 'grant', 'reject', 'forward'].map((r) => `visa-application-${r}`),
      { sub: 'officer-timers', name: 'Tia Officer' },
    );
    sponsorOfficer = await api.tokenFor(
      ['search', 'read', 'query', 'grant', 'reject'].map((r) => `sponsor-application-${r}`),
      { sub: 'officer-sponsors', name: 'Sione Officer' },
    );
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (
    method: 'GET' | 'POST',
    url: string,
    token: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => api.call(method, url, { token, body, headers });
  const ok = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
    const response = await call(method, url, token, body);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json() as View;
  };
  const timerRows = (documentId: string) =>
    allTables(api.server.database.db)
      .withTables<{ document_timer: { document_id: string; kind: string; due_at: Date } }>()
      .selectFrom('document_timer')
      .selectAll()
      .where('document_id', '=', documentId)
      .execute();

  /** A visa application of the demo applicant, submitted and paid: with the officers. */
  async function paidVisa(): Promise<View> {
    const submitted = await submittedVisa(applicationsThrough(api), applicant.token);
    await ok('POST', `${VISAS}/${submitted.id}/actions/initiate`, applicant.token, {
      version: submitted.version,
      data: { termsAccepted: true },
    });
    await payOnGateway(api, 'visa-application', submitted.id, applicant.token);
    const paid = await ok('GET', `${VISAS}/${submitted.id}`, officer);
    expect(paid.status).toBe('PAID FOR VERIFICATION');
    return paid;
  }

  /**
   * A paid visa application an officer queried: QUERIED, its reply due in 28 days; `due` is
   * when, as the document says, and `queriedAt` a moment before the query.
   */
  async function queriedVisa(): Promise<{ doc: View; queriedAt: Date; due: Date }> {
    const paid = await paidVisa();
    const queriedAt = new Date();
    const doc = await ok('POST', `${VISAS}/${paid.id}/actions/query`, officer, {
      version: paid.version,
      notes: 'Please send a clearer passport scan.',
    });
    expect(doc.status).toBe('QUERIED');
    return { doc, queriedAt, due: new Date(doc.timers![0]!.dueAt) };
  }

  it('lapses a query left unanswered to NO REPLY after its date, shown as due on the document', async () => {
    const { doc, queriedAt, due: dueAt } = await queriedVisa();
    // The document says by when a reply is due, to its owner and to officers.
    const [timer] = doc.timers ?? [];
    expect(timer?.name).toBe('responseDue');
    const due = new Date(timer!.dueAt).getTime();
    expect(Math.abs(due - inDays(28, queriedAt).getTime())).toBeLessThan(60_000);
    expect((await ok('GET', `${VISAS}/${doc.id}`, applicant.token)).timers).toEqual(doc.timers);

    // A second before, nothing fires but the reminders due by then.
    await api.server.timers.runOnce(new Date(dueAt.getTime() - 1000));
    expect((await ok('GET', `${VISAS}/${doc.id}`, officer)).status).toBe('QUERIED');
    const result = await api.server.timers.runOnce(dueAt);
    expect(result.fired).toBeGreaterThanOrEqual(1);
    const lapsed = await ok('GET', `${VISAS}/${doc.id}`, officer);
    expect(lapsed.status).toBe('NO REPLY');
    expect(lapsed.timers).toBeUndefined();
    expect(await timerRows(doc.id)).toEqual([]);
    // The history names the time limit and says what happened, as the timer's action.
    const history = (await call('GET', `${VISAS}/${doc.id}/history`, officer)).json() as Array<{
      action: string;
      operation: string;
      notesKey?: string;
    }>;
    expect(history.at(-1)).toMatchObject({
      action: 'lapse',
      operation: 'QUERIED -> NO REPLY',
      notesKey: 'visa-application.history.responseDue',
    });
    // The officers take it up as a reply: it is in their queue, their actions offered.
    const officerView = await ok('GET', `${VISAS}/${doc.id}`, officer);
    expect((officerView as unknown as { allowedActions: string[] }).allowedActions).toEqual(
      expect.arrayContaining(['grant', 'reject', 'query']),
    );
    // Fired once: a second poll finds nothing more to do.
    expect(await api.server.timers.runOnce(inDays(40, queriedAt))).toMatchObject({ fired: 0 });
    expect((await ok('GET', `${VISAS}/${doc.id}`, officer)).version).toBe(lapsed.version);
  });

  it('refuses a reply after the lapse with a translated 409', async () => {
    const { doc, queriedAt } = await queriedVisa();
    await api.server.timers.runOnce(inDays(29, queriedAt));
    const refused = await call(
      'POST',
      `${VISAS}/${doc.id}/actions/submit-reply`,
      applicant.token,
      { version: doc.version + 1, data: doc.data },
      { 'accept-language': 'fr' },
    );
    expect(refused.statusCode, refused.body).toBe(409);
    const error = (refused.json() as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('ACTION_NOT_ALLOWED');
    expect(error.message).toContain('Sans réponse');
    expect((await ok('GET', `${VISAS}/${doc.id}`, officer)).status).toBe('NO REPLY');
  });

  it('reminds the holder 7 and 1 days before, once each, in their language', async () => {
    const { doc: queried, due } = await queriedVisa();
    // The holder chooses French while the query waits: the reminders follow.
    const data = structuredClone(queried.data) as { contact: Record<string, unknown> };
    data.contact.preferredLanguage = 'fr';
    const amended = await ok('POST', `${VISAS}/${queried.id}/actions/amend`, applicant.token, {
      version: queried.version,
      data,
    });
    expect(amended.status).toBe('QUERIED');
    const reminders = async () =>
      (await messagesAbout(api.server.database.db, queried.id)).filter((m) =>
        /Rappel|Reminder/.test(m.subject),
      );
    await api.server.timers.runOnce(new Date(inDays(-7, due).getTime() - 1000));
    expect(await reminders()).toEqual([]);
    const week = await api.server.timers.runOnce(inDays(-7, due));
    expect(week.reminded).toBeGreaterThanOrEqual(1);
    let sent = await reminders();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toContain(
      `Rappel : répondez à la demande sur le dossier ${queried.number}`,
    );
    expect(sent[0]!.body).toContain('il reste 7 jour(s)');
    // Polled again the same day: nothing sent twice.
    await api.server.timers.runOnce(inDays(-7, due));
    expect(await reminders()).toHaveLength(1);
    await api.server.timers.runOnce(inDays(-1, due));
    sent = await reminders();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toContain('il reste 1 jour(s)');
    expect((await ok('GET', `${VISAS}/${queried.id}`, officer)).status).toBe('QUERIED');
  });

  it('cancels the timer when the document leaves the status: a reply in time never lapses', async () => {
    const { doc, queriedAt } = await queriedVisa();
    const replied = await ok('POST', `${VISAS}/${doc.id}/actions/submit-reply`, applicant.token, {
      version: doc.version,
      data: doc.data,
    });
    expect(replied.status).toBe('REPLIED FOR VERIFICATION');
    expect(await timerRows(doc.id)).toEqual([]);
    await api.server.timers.runOnce(inDays(60, queriedAt));
    expect((await ok('GET', `${VISAS}/${doc.id}`, officer)).status).toBe(
      'REPLIED FOR VERIFICATION',
    );
  });

  it('fires each timer exactly once with two workers polling the same database at once', async () => {
    const queried = await Promise.all([queriedVisa(), queriedVisa()]);
    const second = startTimers({ ...api.server.timers.options, intervalMs: 0 });
    const at = inDays(29);
    const results = await Promise.all([api.server.timers.runOnce(at), second.runOnce(at)]);
    await second.stop();
    for (const { doc } of queried) {
      const history = (await call('GET', `${VISAS}/${doc.id}/history`, officer)).json() as Array<{
        action: string;
      }>;
      expect(history.filter((line) => line.action === 'lapse')).toHaveLength(1);
      expect((await ok('GET', `${VISAS}/${doc.id}`, officer)).status).toBe('NO REPLY');
    }
    const fired = results.reduce((sum, result) => sum + result.fired, 0);
    expect(fired).toBeGreaterThanOrEqual(2);
    expect(results.every((result) => result.failed === 0)).toBe(true);
  });

  it('settles a timer racing the holder’s reply: one wins, the other is refused or skipped', async () => {
    const reply = (doc: View) =>
      call('POST', `${VISAS}/${doc.id}/actions/submit-reply`, applicant.token, {
        version: doc.version,
        data: doc.data,
      });
    // The reply first: the timer finds the status left and does nothing.
    const first = await queriedVisa();
    expect((await reply(first.doc)).statusCode).toBe(200);
    expect(await api.server.timers.runOnce(inDays(1, first.due))).toMatchObject({ failed: 0 });
    const replied = await ok('GET', `${VISAS}/${first.doc.id}`, officer);
    expect(replied.status).toBe('REPLIED FOR VERIFICATION');
    expect(replied.version).toBe(first.doc.version + 1);

    // The timer first: the reply on the version read is stale (409), the document NO REPLY.
    const second = await queriedVisa();
    await api.server.timers.runOnce(second.due);
    const late = await reply(second.doc);
    expect(late.statusCode).toBe(409);
    expect((late.json() as { error: { code: string } }).error.code).toBe('STALE_VERSION');
    const lapsed = await ok('GET', `${VISAS}/${second.doc.id}`, officer);
    expect(lapsed.status).toBe('NO REPLY');
    expect(lapsed.version).toBe(second.doc.version + 1);

    // Both at once: exactly one of them changes the document, the other changes nothing.
    const third = await queriedVisa();
    const [acted, polled] = await Promise.all([
      reply(third.doc),
      api.server.timers.runOnce(third.due),
    ]);
    const final = await ok('GET', `${VISAS}/${third.doc.id}`, officer);
    expect(final.version).toBe(third.doc.version + 1);
    if (acted.statusCode === 200) expect(final.status).toBe('REPLIED FOR VERIFICATION');
    else {
      expect(acted.statusCode).toBe(409);
      expect(final.status).toBe('NO REPLY');
      expect(polled.fired).toBeGreaterThanOrEqual(1);
    }
    expect(polled.failed).toBe(0);
    expect(await timerRows(third.doc.id)).toEqual([]);
  });

  it('expires an unpaid invoice after its payment term and releases its applications', async () => {
    const visa = await submittedVisa(applicationsThrough(api), applicant.token);
    const payer = await api.issuer.token({
      sub: applicant.id,
      name: applicant.name,
      groups: ['create', 'delete', 'upload', 'read'].map((r) => `payment-invoice-${r}`),
    });
    const invoice = await ok('POST', INVOICES, payer, {
      action: 'create',
      data: invoiceData([visa.number]),
    });
    expect(invoice.status).toBe('CREATED');
    const included = await ok('GET', `${VISAS}/${visa.id}`, officer);
    expect(included.status).toBe('SUBMITTED FOR PAYMENT');
    // Due on the invoice's own due date (its payment term from the bank account).
    const dueDate = (invoice.data.payTo as { dueDate: string }).dueDate;
    expect(invoice.timers).toEqual([{ name: 'paymentDue', dueAt: `${dueDate}T00:00:00.000Z` }]);
    await api.server.timers.runOnce(new Date(`${dueDate}T00:00:00.000Z`));
    expect((await ok('GET', `${INVOICES}/${invoice.id}`, payer)).status).toBe('EXPIRED');
    const released = await ok('GET', `${VISAS}/${visa.id}`, officer);
    expect(released.status).toBe('SUBMITTED');
  });

  it('expires a granted sponsorship on its expiry date', async () => {
    const sponsor = await api.issuer.token({
      sub: 'sponsor-timers',
      name: 'Reef Trading',
      email: 'reef@example.org',
      groups: [
        'view-profile',
        ...['submit', 'read', 'update', 'pay'].map((r) => `sponsor-application-${r}`),
      ],
    });
    const submitted = await submittedSponsorship(applicationsThrough(api), sponsor);
    const initiated = await ok('POST', `${SPONSORS}/${submitted.id}/actions/initiate`, sponsor, {
      version: submitted.version,
      data: { termsAccepted: true },
    });
    await payOnGateway(api, 'sponsor-application', initiated.id, sponsor);
    const paid = await ok('GET', `${SPONSORS}/${submitted.id}`, sponsorOfficer);
    const granted = await ok('POST', `${SPONSORS}/${paid.id}/actions/grant`, sponsorOfficer, {
      version: paid.version,
      data: { verification: { period: 'SPO3Y' } },
    });
    expect(granted.status).toBe('GRANTED');
    const expiry = (granted.data.header as { expiryDate: string }).expiryDate;
    expect(granted.timers).toEqual([{ name: 'validityEnds', dueAt: `${expiry}T00:00:00.000Z` }]);
    await api.server.timers.runOnce(inDays(-1, new Date(`${expiry}T00:00:00.000Z`)));
    expect((await ok('GET', `${SPONSORS}/${paid.id}`, sponsorOfficer)).status).toBe('GRANTED');
    await api.server.timers.runOnce(new Date(`${expiry}T00:00:00.000Z`));
    expect((await ok('GET', `${SPONSORS}/${paid.id}`, sponsorOfficer)).status).toBe('EXPIRED');
  });
});
