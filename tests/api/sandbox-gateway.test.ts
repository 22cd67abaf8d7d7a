import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import type { SessionRequest } from '../../src/server/payments/gateway';
import {
  SANDBOX_SIGNATURE_HEADER,
  SandboxGateway,
  signNotification,
} from '../../src/server/payments/sandbox/gateway';
import { sandboxGatewayPlugin } from '../../src/server/payments/sandbox/plugin';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases';
import { copyPgliteTemplate } from '../support/pglite-template';

/**
 * The sandbox gateway on its own: app.ts does not register it yet, so this builds a small
 * Fastify app with the project's migrations and the plugin, and records notifications instead
 * of posting them.
 */

const SECRET = 'sandbox-test-secret';
const PUBLIC_URL = 'http://localhost:8080';
const APPROVE = '4111 1111 1111 1111';
const DECLINE = '4000 0000 0000 0002';
const TIME_OUT = '4000 0000 0000 0119';
const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');

interface Delivery {
  url: string;
  body: string;
  headers: Record<string, string>;
}

describe.each(databaseKinds())('sandbox payment gateway on %s', (kind) => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let gateway: SandboxGateway;
  let deliveries: Delivery[];

  beforeAll(async () => {
    testDatabase = await createTestDatabase(kind);
    if (kind === 'pglite') await copyPgliteTemplate(testDatabase.dataDir);
    database = await openDatabase({
      dataDir: testDatabase.dataDir,
      databaseUrl: testDatabase.databaseUrl,
      schema: testDatabase.schema,
    });
    gateway = new SandboxGateway({ db: database.db, publicUrl: PUBLIC_URL, secret: SECRET });
    app = Fastify({ logger: false });
    await app.register(sandboxGatewayPlugin, {
      prefix: '/sandbox-gateway',
      db: database.db,
      secret: SECRET,
      deliver: async (url, body, headers) => {
        deliveries.push({ url, body, headers });
        return 200;
      },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await testDatabase?.cleanup();
  });
  beforeEach(() => {
    deliveries = [];
  });

  const request = (overrides: Partial<SessionRequest> = {}): SessionRequest => ({
    orderReference: `ORD-${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
    amountCents: 15000,
    currency: 'NZD',
    description: 'Visa application fee <VA-2026-000042>',
    returnUrl: `${PUBLIC_URL}/payments/return?order=1`,
    notifyUrl: `${PUBLIC_URL}/api/payments/notifications/sandbox`,
    language: 'en',
    ...overrides,
  });
  const pathOf = (redirectUrl: string) => new URL(redirectUrl).pathname;
  const pay = (path: string, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const card = (cardNumber: string, extra: Record<string, string> = {}) => ({
    cardNumber,
    cardName: 'Jane Tester',
    expiry: `12/${nextYear}`,
    cvc: '123',
    ...extra,
  });

  it('shows the hosted card page without any script', async () => {
    const session = await gateway.createSession(request({ orderReference: 'ORD-PAGE-1' }));
    expect(session.redirectUrl).toBe(`${PUBLIC_URL}/sandbox-gateway/pay/${session.sessionId}`);
    const page = await app.inject({ method: 'GET', url: pathOf(session.redirectUrl) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const html = page.body;
    expect(html).toContain('Sandbox Payment Gateway — test mode, no real money');
    expect(html).toContain('Immigration Service');
    expect(html).toContain('NZD 150.00');
    expect(html).toContain('ORD-PAGE-1');
    // The description is escaped, not injected.
    expect(html).toContain('Visa application fee &lt;VA-2026-000042&gt;');
    for (const number of [APPROVE, DECLINE, TIME_OUT]) expect(html).toContain(number);
    for (const auto of ['cc-number', 'cc-name', 'cc-exp', 'cc-csc']) {
      expect(html).toContain(`autocomplete="${auto}"`);
    }
    expect(html).toContain('<label for="cardNumber">');
    expect(html).toContain('/cancel"');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    // Nothing it makes the browser fetch is missing: its icon is named (else the browser asks
    // for /favicon.ico, a 404), and nothing else is loaded from anywhere.
    expect(html).toMatch(/<link rel="icon" href="data:,">/);
    for (const [, address] of html.matchAll(/\ssrc="([^"]*)"/g)) expect(address).toMatch(/^data:/);
    for (const [, tag] of html.matchAll(/<link\s([^>]*)>/g)) expect(tag).toMatch(/href="data:/);
    const unknown = await app.inject({ method: 'GET', url: '/sandbox-gateway/pay/sbx_unknown' });
    expect(unknown.body).toMatch(/<link rel="icon" href="data:,">/);
  });

  it('approves the approval card once, notifies with a valid signature, and never pays twice', async () => {
    const session = await gateway.createSession(request());
    const path = pathOf(session.redirectUrl);
    const paid = await pay(path, card(APPROVE));
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${PUBLIC_URL}/payments/return?order=1`);
    expect(deliveries).toHaveLength(1);
    const delivery = deliveries[0]!;
    expect(delivery.url).toBe(`${PUBLIC_URL}/api/payments/notifications/sandbox`);
    expect(delivery.headers['content-type']).toBe('application/json');
    const report = gateway.verifyNotification(delivery.body, delivery.headers);
    expect(report).toMatchObject({
      sessionId: session.sessionId,
      outcome: 'APPROVED',
      amountCents: 15000,
      currency: 'NZD',
      maskedCard: '•••• 1111',
    });
    expect(report?.transactionId).toMatch(/^sbx_txn_/);
    expect(await gateway.querySession(session.sessionId)).toEqual(report);

    const again = await pay(path, card(APPROVE));
    expect(again.body).toContain('Payment already processed');
    expect(again.body).toContain('href="http://localhost:8080/payments/return?order=1"');
    expect(deliveries).toHaveLength(1);
    const shown = await app.inject({ method: 'GET', url: path });
    expect(shown.body).toContain('Payment already processed');
  });

  it('lets only one of two simultaneous submits through', async () => {
    const session = await gateway.createSession(request());
    const path = pathOf(session.redirectUrl);
    const answers = await Promise.all([pay(path, card(APPROVE)), pay(path, card(APPROVE))]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([303, 409]);
    expect(deliveries).toHaveLength(1);
  });

  it('declines the decline card with a signed DECLINED notification', async () => {
    const session = await gateway.createSession(request());
    const answer = await pay(pathOf(session.redirectUrl), card(DECLINE));
    expect(answer.statusCode).toBe(303);
    expect(deliveries).toHaveLength(1);
    const delivery = deliveries[0]!;
    const report = gateway.verifyNotification(delivery.body, delivery.headers);
    expect(report).toMatchObject({ outcome: 'DECLINED', maskedCard: '•••• 0002' });
    expect((await gateway.querySession(session.sessionId)).outcome).toBe('DECLINED');
  });

  it('declines any other valid card', async () => {
    const session = await gateway.createSession(request());
    await pay(pathOf(session.redirectUrl), card('5555 5555 5555 4444'));
    expect((await gateway.querySession(session.sessionId)).outcome).toBe('DECLINED');
  });

  it('sends nothing for the time-out card: the portal learns it by querying', async () => {
    const session = await gateway.createSession(request());
    const answer = await pay(pathOf(session.redirectUrl), card(TIME_OUT));
    expect(answer.statusCode).toBe(303);
    expect(deliveries).toHaveLength(0);
    const report = await gateway.querySession(session.sessionId);
    expect(report.outcome).toBe('TIMED_OUT');
    expect(report.transactionId).toBeUndefined();
  });

  it('cancels without a notification', async () => {
    const session = await gateway.createSession(request());
    const answer = await app.inject({
      method: 'POST',
      url: `${pathOf(session.redirectUrl)}/cancel`,
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(`${PUBLIC_URL}/payments/return?order=1`);
    expect(deliveries).toHaveLength(0);
    expect((await gateway.querySession(session.sessionId)).outcome).toBe('CANCELLED');
  });

  it('refuses an invalid card with per-field errors and never echoes the number or code', async () => {
    const session = await gateway.createSession(request());
    const answer = await pay(
      pathOf(session.redirectUrl),
      card('4111 1111 1111 1112', { cardName: 'Jane <b>', expiry: '01/20', cvc: '98765' }),
    );
    expect(answer.statusCode).toBe(400);
    const html = answer.body;
    expect(html).toContain('id="cardNumber-error"');
    expect(html).toContain('id="expiry-error"');
    expect(html).toContain('id="cvc-error"');
    expect(html).not.toContain('id="cardName-error"');
    expect(html).not.toContain('4111111111111112');
    expect(html).not.toContain('4111 1111 1111 1112');
    expect(html).not.toContain('98765');
    expect(html).toContain('value="Jane &lt;b&gt;"');
    expect(deliveries).toHaveLength(0);
    expect((await gateway.querySession(session.sessionId)).outcome).toBe('PENDING');
  });

  it('speaks French when the session is in French', async () => {
    const session = await gateway.createSession(request({ language: 'fr' }));
    const page = await app.inject({ method: 'GET', url: pathOf(session.redirectUrl) });
    expect(page.body).toContain('<html lang="fr">');
    expect(page.body).toContain('Passerelle de paiement de test');
    expect(page.body).toContain('Numéro de carte');
    expect(page.body).toContain('150,00 NZD');
    const invalid = await pay(pathOf(session.redirectUrl), card('1234', { cvc: '' }));
    expect(invalid.body).toContain('Saisissez un numéro de carte valide');
  });

  it('answers 404 for an unknown session', async () => {
    const page = await app.inject({ method: 'GET', url: '/sandbox-gateway/pay/sbx_unknown' });
    expect(page.statusCode).toBe(404);
    await expect(gateway.querySession('sbx_unknown')).rejects.toThrow();
  });

  it('refuses notifications that are changed, mis-signed, stale or unsigned', () => {
    const body = JSON.stringify({
      sessionId: 'sbx_x',
      orderReference: 'ORD-1',
      outcome: 'APPROVED',
      amountCents: 15000,
      currency: 'NZD',
      transactionId: 'sbx_txn_1',
      maskedCard: '•••• 1111',
    });
    const signed = (header: string) => ({ [SANDBOX_SIGNATURE_HEADER]: header });
    expect(gateway.verifyNotification(body, signed(signNotification(SECRET, body)))).toMatchObject({
      outcome: 'APPROVED',
      amountCents: 15000,
    });
    const changed = body.replace('15000', '1500');
    expect(gateway.verifyNotification(changed, signed(signNotification(SECRET, body)))).toBe(
      undefined,
    );
    expect(gateway.verifyNotification(body, signed(signNotification('other', body)))).toBe(
      undefined,
    );
    const stale = signNotification(SECRET, body, Date.now() - 301_000);
    expect(gateway.verifyNotification(body, signed(stale))).toBe(undefined);
    expect(gateway.verifyNotification(body, {})).toBe(undefined);
    // Signed but malformed: the amount must be an integer number.
    const badAmount = body.replace('15000', '"150.00"');
    const header = signNotification(SECRET, badAmount);
    expect(gateway.verifyNotification(badAmount, signed(header))).toBe(undefined);
  });

  it('never stores a card number', async () => {
    const rows = await sql<Record<string, unknown>>`select * from sandbox_gateway_session`.execute(
      database.db,
    );
    expect(rows.rows.length).toBeGreaterThan(0);
    const text = JSON.stringify(rows.rows);
    expect(text).not.toContain('4111111111111111');
    expect(text).not.toContain('4000000000000002');
  });
});
