import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signNotification } from '../../src/server/payments/sandbox/gateway';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';

/**
 * Paying a document through the sandbox gateway (the payable fixture type test-payable): the
 * fees are frozen from the catalogues in NZD cents, the gateway's page takes the card, and the
 * document is paid once whatever the gateway, the browser or a forger sends.
 */
const TYPE = 'test-payable';
const CARDS = {
  approve: '4111111111111111',
  decline: '4000000000000002',
  timeout: '4000000000000119',
};

describe.each(databaseKinds())('payments through the sandbox gateway on %s', (kind) => {
  let api: ApiHarness;
  let removeDefinitions: () => Promise<void>;
  let payer: string;
  let other: string;
  let secret: string;

  beforeAll(async () => {
    const definitions = await definitionsWithFixtures();
    removeDefinitions = definitions.remove;
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    secret = api.config.payments.sandboxSecret;
    payer = await api.issuer.token({
      sub: 'payer-1',
      name: 'Ana Payer',
      groups: ['test-payable-submit', 'test-payable-pay'],
    });
    other = await api.issuer.token({
      sub: 'payer-2',
      groups: ['test-payable-submit', 'test-payable-pay'],
    });
    // A document of its own, with fees whose sum a float would get wrong (120.50 + 30.25 + 0.10).
    const manager = await api.tokenFor(['asypx-catalog-manage']);
    const start = '2020-01-01T00:00:00Z';
    for (const [catalog, entry] of [
      ['document', { code: 'QPAY', name: 'Payable test', binder: 'VISA' }],
      [
        'sub-document',
        {
          documentCode: 'QPAY',
          code: 'QP30',
          name: 'Payable test, 30 days',
          allowedPeriodType: 'DAY',
          allowedPeriodNumber: 30,
          feeAmount: 30.25,
          otherAmount: 0.1,
        },
      ],
      [
        'document-fee',
        {
          documentCode: 'QPAY',
          code: 'APP',
          name: 'Application fee',
          status: true,
          automatic: true,
          amount: 120.5,
        },
      ],
      [
        'document-fee',
        {
          documentCode: 'QPAY',
          code: 'OPT',
          name: 'Courier',
          status: true,
          automatic: false,
          amount: 99,
        },
      ],
      [
        'sub-document-fee',
        {
          subDocumentCode: 'QP30',
          code: 'ISS',
          name: 'Issue fee',
          status: true,
          automatic: true,
          amount: 30.25,
          other: 0.1,
        },
      ],
    ] as const) {
      const created = await api.call('POST', `/api/catalog/v1/${catalog}`, {
        token: manager,
        body: { ...entry, startTime: start },
      });
      expect(created.statusCode, created.body).toBe(201);
    }
  });
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  const DATA = { application: { name: 'Ana Payer', document: 'QPAY', subDocument: 'QP30' } };
  type Doc = {
    id: string;
    version: number;
    status: string;
    data: { fees?: unknown; payment: { orderReference: string } };
    allowedActions: string[];
  };

  const read = async (id: string, token = payer): Promise<Doc> =>
    (await api.call('GET', `/api/evisa/${TYPE}/${id}`, { token })).json();
  const act = (id: string, version: number, action: string, data?: unknown, token = payer) =>
    api.call('POST', `/api/evisa/${TYPE}/${id}/actions/${action}`, {
      token,
      body: { version, ...(data === undefined ? {} : { data }) },
    });

  /** A submitted document with its fees frozen, its payment initiated. */
  async function initiated(): Promise<Doc> {
    const stored = await api.call('POST', `/api/evisa/${TYPE}`, {
      token: payer,
      body: { data: DATA },
    });
    expect(stored.statusCode, stored.body).toBe(201);
    const id = (stored.json() as Doc).id;
    const submitted = await act(id, 1, 'submit', DATA);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().status).toBe('SUBMITTED');
    const started = await act(id, 2, 'initiate', { termsAccepted: true });
    expect(started.statusCode, started.body).toBe(200);
    return started.json();
  }

  const purchase = async (id: string) => {
    const response = await api.call('POST', `/api/payments/${TYPE}/${id}/purchase`, {
      token: payer,
    });
    expect(response.statusCode, response.body).toBe(200);
    const url = new URL(response.json().redirectUrl as string);
    return { path: url.pathname, session: url.pathname.split('/').pop()! };
  };
  const payOnGateway = (path: string, card: string) =>
    api.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        cardNumber: card,
        cardName: 'Ana Payer',
        expiry: '12/39',
        cvc: '123',
      }).toString(),
    });
  const state = async (id: string) =>
    (await api.call('GET', `/api/payments/${TYPE}/${id}`, { token: payer })).json();
  const notify = (body: Record<string, unknown>, key = secret) => {
    const raw = JSON.stringify(body);
    return api.app.inject({
      method: 'POST',
      url: '/api/payments/notify/sandbox',
      headers: {
        'content-type': 'application/json',
        'x-sandbox-signature': signNotification(key, raw),
      },
      payload: raw,
    });
  };
  const history = async (id: string) =>
    (await api.call('GET', `/api/evisa/${TYPE}/${id}/history`, { token: payer })).json() as Array<{
      action: string;
    }>;

  it('freezes the fees in NZD to the cent, and needs the terms accepted before an order exists', async () => {
    const stored = await api.call('POST', `/api/evisa/${TYPE}`, {
      token: payer,
      body: { data: DATA },
    });
    const doc = stored.json() as Doc;
    expect(doc.data.fees).toEqual({
      lines: [
        { code: 'APP', name: 'Application fee', amount: '120.50', status: 'DUE' },
        { code: 'ISS', name: 'Issue fee', amount: '30.35', status: 'DUE' },
      ],
      currency: 'NZD',
      total: '150.85',
    });
    await act(doc.id, 1, 'submit', DATA);
    const refused = await act(doc.id, 2, 'initiate', {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields[0]).toMatchObject({
      path: '/termsAccepted',
      rule: 'accepted',
    });
    expect((await read(doc.id)).status).toBe('SUBMITTED');
  });

  it('approves: PAID FOR VERIFICATION, one receipt as a PDF, no card number kept anywhere', async () => {
    const doc = await initiated();
    expect(doc.status).toBe('PURCHASE INITIATED');
    expect(doc.data.payment).toMatchObject({ orderReference: expect.stringMatching(/^TP-/) });
    const { path } = await purchase(doc.id);
    const page = await api.app.inject({ method: 'GET', url: path });
    expect(page.body).toContain('150.85');
    const paid = await payOnGateway(path, CARDS.approve);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toContain(`/test/payable/finalisation/${doc.id}`);
    const paidDocument = await read(doc.id);
    expect(paidDocument.status).toBe('PAID FOR VERIFICATION');
    const { order, documentStatus } = await state(doc.id);
    // The document records what was paid, with which receipt: its fee lines are PAID.
    expect(paidDocument.data.fees).toMatchObject({
      amountPaid: '150.85',
      receiptReference: order.receiptReference,
      lines: [{ status: 'PAID' }, { status: 'PAID' }],
    });
    expect(documentStatus).toBe('PAID FOR VERIFICATION');
    expect(order).toMatchObject({
      status: 'APPROVED',
      total: '150.85',
      amountPaid: '150.85',
      maskedCard: '•••• 1111',
      receiptReference: expect.stringMatching(/^RC-\d{4}-\d{6}$/),
    });
    const receipt = await api.call('GET', `/api/payments/${TYPE}/${doc.id}/receipt`, {
      token: payer,
    });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The owner only: another payer sees nothing of it.
    expect(
      (await api.call('GET', `/api/payments/${TYPE}/${doc.id}`, { token: other })).statusCode,
    ).toBe(404);
    const db = api.tables;
    const tables = await Promise.all([
      db.selectFrom('payment_order').selectAll().execute(),
      db.selectFrom('sandbox_gateway_session').selectAll().execute(),
      db.selectFrom('document').selectAll().execute(),
      db.selectFrom('document_version').selectAll().execute(),
      db.selectFrom('document_history').selectAll().execute(),
    ]);
    expect(JSON.stringify(tables)).not.toContain(CARDS.approve);
    expect(JSON.stringify(tables)).not.toMatch(/cvc|securityCode|cardNumber/i);
  });

  it('declines: back to SUBMITTED, and a second try with a new order pays', async () => {
    const doc = await initiated();
    const first = await purchase(doc.id);
    expect((await payOnGateway(first.path, CARDS.decline)).statusCode).toBe(303);
    const declined = await read(doc.id);
    expect(declined.status).toBe('SUBMITTED');
    expect((await state(doc.id)).order.status).toBe('DECLINED');
    const again = await act(doc.id, declined.version, 'initiate', { termsAccepted: true });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.payment.orderReference).toMatch(/-P2$/);
    const second = await purchase(doc.id);
    expect(second.session).not.toBe(first.session);
    await payOnGateway(second.path, CARDS.approve);
    expect((await read(doc.id)).status).toBe('PAID FOR VERIFICATION');
  });

  it('times out: no notification, the return page asks the gateway and the document can be paid again', async () => {
    const doc = await initiated();
    const { path } = await purchase(doc.id);
    expect((await payOnGateway(path, CARDS.timeout)).statusCode).toBe(303);
    expect((await read(doc.id)).status).toBe('PURCHASE INITIATED');
    const { order, documentStatus } = await state(doc.id);
    expect(order.status).toBe('TIMED_OUT');
    expect(documentStatus).toBe('SUBMITTED');
  });

  it('pays once when the same approval arrives 100 times at once', async () => {
    const doc = await initiated();
    const { session } = await purchase(doc.id);
    const body = {
      sessionId: session,
      orderReference: doc.data.payment.orderReference,
      outcome: 'APPROVED',
      amountCents: 15085,
      currency: 'NZD',
      transactionId: 'sbx_txn_once',
      maskedCard: '•••• 1111',
    };
    const answers = await Promise.all(Array.from({ length: 100 }, () => notify(body)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(100).fill(200));
    const after = await read(doc.id);
    expect(after.status).toBe('PAID FOR VERIFICATION');
    const paid = (await history(doc.id)).filter((h) => h.action === 'pay');
    expect(paid).toHaveLength(1);
    // The gateway's note and name are shown in the reader's language: a key and its values.
    expect(paid[0]).toMatchObject({
      name: 'system:payment-gateway',
      notesKey: 'notices.history.paid',
      notesParams: { order: body.orderReference, amount: '150.85', currency: 'NZD' },
      notes: `Paid: order ${body.orderReference}, NZD 150.85`,
    });
    const orders = await api.server.database.db
      .selectFrom('payment_order')
      .select(['status', 'receipt_reference'])
      .where('document_id', '=', doc.id)
      .execute();
    expect(orders.filter((o) => o.status === 'APPROVED')).toHaveLength(1);
    expect(new Set(orders.map((o) => o.receipt_reference).filter(Boolean)).size).toBe(1);
    // The return page refreshed, the gateway's own notification later: nothing changes.
    await state(doc.id);
    expect((await read(doc.id)).version).toBe(after.version);
  });

  it('refuses a forged signature, a tampered amount and an unknown order, changing nothing', async () => {
    const doc = await initiated();
    const { session } = await purchase(doc.id);
    const genuine = {
      sessionId: session,
      orderReference: doc.data.payment.orderReference,
      outcome: 'APPROVED',
      amountCents: 15085,
      currency: 'NZD',
    };
    const forged = await notify(genuine, 'not-the-secret');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe('PAYMENT_NOTIFICATION_REFUSED');
    expect((await notify({ ...genuine, amountCents: 100 })).statusCode).toBe(400);
    expect((await notify({ ...genuine, currency: 'AUD' })).statusCode).toBe(400);
    expect((await notify({ ...genuine, sessionId: 'sbx_nobody' })).statusCode).toBe(400);
    expect((await notify({ ...genuine, orderReference: 'TP-0000-P9' })).statusCode).toBe(400);
    const unchanged = await read(doc.id);
    expect(unchanged.status).toBe('PURCHASE INITIATED');
    expect(unchanged.version).toBe(doc.version);
    expect((await state(doc.id)).order.status).toBe('PENDING');
  });

  it('pays once when two tabs pay one document at the same time', async () => {
    const doc = await initiated();
    const [a, b] = await Promise.all([purchase(doc.id), purchase(doc.id)]);
    expect(a.session).toBe(b.session);
    const [first, second] = await Promise.all([
      payOnGateway(a.path, CARDS.approve),
      payOnGateway(b.path, CARDS.approve),
    ]);
    expect([first.statusCode, second.statusCode]).toContain(303);
    expect((await read(doc.id)).status).toBe('PAID FOR VERIFICATION');
    expect((await history(doc.id)).filter((h) => h.action === 'pay')).toHaveLength(1);
    // Two initiates racing on one document: one wins, the other is told the document moved on.
    const next = await api.call('POST', `/api/evisa/${TYPE}`, {
      token: payer,
      body: { data: DATA },
    });
    const id = (next.json() as Doc).id;
    await act(id, 1, 'submit', DATA);
    const racing = await Promise.all([
      act(id, 2, 'initiate', { termsAccepted: true }),
      act(id, 2, 'initiate', { termsAccepted: true }),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('lets nobody fire the gateway-only actions through the API', async () => {
    const doc = await initiated();
    expect(doc.allowedActions).not.toContain('pay');
    const direct = await act(doc.id, doc.version, 'pay');
    expect(direct.statusCode).toBe(403);
    expect((await read(doc.id)).status).toBe('PURCHASE INITIATED');
  });
});
