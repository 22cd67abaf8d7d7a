import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signNotification } from '../../src/server/payments/sandbox/gateway';
import { REFUND_RECEIPT_VALUE_X } from '../../src/server/payments/refund-receipt-pdf';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { payOnGateway } from '../support/gateway';
import { messagesAbout } from '../support/inbox';
import { assertReadablePdf, extractPdfText, textsOf } from '../support/pdf-text';

/**
 * Refunds of a document paid by card through the sandbox gateway (the fixture type test-payable,
 * whose `payment.refunds` asks a second officer to approve refunds above 100.00): sent after
 * commit, completed once by the gateway's signed notification whatever is replayed or forged,
 * never more than was paid, one open at a time, four eyes above the threshold, a receipt in the
 * holder's language.
 */
const TYPE = 'test-payable';

interface RefundView {
  id: string;
  refundNumber: string;
  status: string;
  amount: string;
  requestedByMe: boolean;
}

describe.each(databaseKinds())('refunds through the sandbox gateway on %s', (kind) => {
  let api: ApiHarness;
  let removeDefinitions: () => Promise<void>;
  let payer: string;
  let officerA: string;
  let officerB: string;
  let secret: string;
  let documentId: string;

  const DATA = { application: { name: 'Ana Payer', document: 'QRFD', subDocument: 'QR30' } };

  beforeAll(async () => {
    const definitions = await definitionsWithFixtures();
    removeDefinitions = definitions.remove;
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    secret = api.config.payments.sandboxSecret;
    payer = await api.issuer.token({
      sub: 'refund-payer',
      name: 'Ana Payer',
      email: 'ana.payer@example.test',
      groups: ['test-payable-submit', 'test-payable-pay'],
    });
    const officer = (sub: string) =>
      api.issuer.token({ sub, name: sub, groups: ['test-payable-search', 'test-payable-refund'] });
    officerA = await officer('refund-officer-a');
    officerB = await officer('refund-officer-b');
    const manager = await api.tokenFor(['asypx-catalog-manage']);
    const start = '2020-01-01T00:00:00Z';
    for (const [catalog, entry] of [
      ['document', { code: 'QRFD', name: 'Refund test', binder: 'VISA' }],
      [
        'sub-document',
        {
          documentCode: 'QRFD',
          code: 'QR30',
          name: 'Refund test, 30 days',
          allowedPeriodType: 'DAY',
          allowedPeriodNumber: 30,
          feeAmount: 0,
          otherAmount: 0,
        },
      ],
      [
        'document-fee',
        {
          documentCode: 'QRFD',
          code: 'APP',
          name: 'Application fee',
          status: true,
          automatic: true,
          amount: 150.85,
        },
      ],
    ] as const) {
      const created = await api.call('POST', `/api/catalog/v1/${catalog}`, {
        token: manager,
        body: { ...entry, startTime: start },
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    // A document paid by card: submitted, initiated, paid on the sandbox's page.
    const stored = await api.call('POST', `/api/evisa/${TYPE}`, {
      token: payer,
      body: { data: DATA },
    });
    expect(stored.statusCode, stored.body).toBe(201);
    documentId = stored.json().id;
    const act = async (version: number, action: string, data: unknown) => {
      const done = await api.call('POST', `/api/evisa/${TYPE}/${documentId}/actions/${action}`, {
        token: payer,
        body: { version, data },
      });
      expect(done.statusCode, done.body).toBe(200);
    };
    await act(1, 'submit', DATA);
    await act(2, 'initiate', { termsAccepted: true });
    await payOnGateway(api, TYPE, documentId, payer);
    const state = await api.call('GET', `/api/payments/${TYPE}/${documentId}`, { token: payer });
    expect(state.json().order.status).toBe('APPROVED');
  });
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  const list = async (token = payer) => {
    const answer = await api.call('GET', `/api/payments/${TYPE}/${documentId}/refunds`, { token });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as { refunds: RefundView[]; paid: string; available: string };
  };
  const ask = (amount: string, token = officerA, language = 'en') =>
    api.call('POST', `/api/payments/${TYPE}/${documentId}/refunds`, {
      token,
      headers: { 'accept-language': language },
      body: { amount, reason: 'overpayment' },
    });
  const statusOf = async (id: string) =>
    (await list()).refunds.find((refund) => refund.id === id)?.status;
  const until = async (id: string, status: string) => {
    // Polled, not timed: the sender answers after the commit, however busy the machine.
    for (let i = 0; i < 600 && (await statusOf(id)) !== status; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await statusOf(id)).toBe(status);
  };
  const notifyRefund = (body: Record<string, unknown>, key = secret) => {
    const raw = JSON.stringify(body);
    return api.app.inject({
      method: 'POST',
      url: '/api/payments/notify/sandbox/refunds',
      headers: {
        'content-type': 'application/json',
        'x-sandbox-signature': signNotification(key, raw),
      },
      payload: raw,
    });
  };
  const noticesOf = async (refundNumber: string) =>
    (await messagesAbout(api.server.database.db, documentId)).filter((m) =>
      m.subject.includes(refundNumber),
    ).length +
    (
      await api.tables
        .selectFrom('outbox')
        .select('id')
        .where('document_id', '=', documentId)
        .where('message_id', 'is', null)
        .where('subject', 'like', `%${refundNumber}%`)
        .execute()
    ).length;

  let first: RefundView;
  let gatewayReport: Record<string, unknown>;

  it('sends a refund under the threshold after commit; the signed notification completes it once, with one notice', async () => {
    const asked = await ask('10.00');
    expect(asked.statusCode, asked.body).toBe(201);
    first = asked.json();
    expect(first.refundNumber).toMatch(/^RF-\d{4}-\d+$/);
    expect(['REQUESTED', 'REFUNDED']).toContain(first.status);
    await until(first.id, 'REFUNDED');
    const row = await api.tables
      .selectFrom('sandbox_gateway_refund')
      .selectAll()
      .where('refund_reference', '=', first.refundNumber)
      .executeTakeFirstOrThrow();
    gatewayReport = {
      refundId: row.id,
      refundReference: row.refund_reference,
      sessionId: row.session_id,
      outcome: 'REFUNDED',
      amountCents: 1000,
      currency: 'NZD',
    };
    // The sandbox's page lists it, in the session's language.
    const page = await api.app.inject({
      method: 'GET',
      url: `/sandbox-gateway/pay/${row.session_id}`,
    });
    expect(page.body).toContain(first.refundNumber);
    expect(page.body).toContain('Refunded');
    // 100 replays: all answered, nothing changes, the holder was told once.
    const replies = await Promise.all(
      Array.from({ length: 100 }, () => notifyRefund(gatewayReport)),
    );
    expect(replies.map((reply) => reply.statusCode)).toEqual(Array(100).fill(200));
    expect(await statusOf(first.id)).toBe('REFUNDED');
    expect(await noticesOf(first.refundNumber)).toBe(1);
    expect((await list()).available).toBe('140.85');
  });

  it('refuses a forged notification, an unknown refund and a wrong amount, changing nothing', async () => {
    const before = await list();
    const forged = await notifyRefund({ ...gatewayReport, outcome: 'FAILED' }, 'not-the-secret');
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error.message).not.toBe('REFUND_NOTIFICATION_FORGED');
    const unknown = await notifyRefund({ ...gatewayReport, refundReference: 'RF-1999-000001' });
    expect(unknown.statusCode).toBe(409);
    const wrongAmount = await notifyRefund({ ...gatewayReport, amountCents: 999 });
    expect(wrongAmount.statusCode).toBe(409);
    expect(await list()).toEqual(before);
  });

  it('refuses a refund above what is left of the payment (translated 422), opening nothing', async () => {
    const refused = await ask('145.00', officerA, 'fr');
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error.code).toBe('REFUND_EXCEEDS_PAID');
    expect(refused.json().error.message).toContain('140.85');
    expect(refused.json().error.message).toContain('Rien');
    expect((await list()).refunds).toHaveLength(1);
    // Neither the payer nor someone without the refund role opens one.
    expect((await ask('1.00', payer)).statusCode).toBe(403);
  });

  let pending: RefundView;

  it('of 50 concurrent requests opens exactly one, above the threshold: PENDING_APPROVAL; the others get a translated 409', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => ask('120.00')));
    const opened = answers.filter((answer) => answer.statusCode === 201);
    expect(opened).toHaveLength(1);
    pending = opened[0]!.json();
    expect(pending.status).toBe('PENDING_APPROVAL');
    const refused = answers.filter((answer) => answer.statusCode !== 201);
    expect(new Set(refused.map((answer) => answer.statusCode))).toEqual(new Set([409]));
    expect(refused[0]!.json().error.code).toBe('REFUND_OPEN');
    expect(refused[0]!.json().error.message).toMatch(/already under way/);
    expect((await list()).refunds).toHaveLength(2);
    // The payer sees it as their own document's, without the power to decide it.
    const waiting = await api.call('GET', '/api/payments/refunds/pending', { token: officerB });
    expect(waiting.json().map((refund: RefundView) => refund.refundNumber)).toContain(
      pending.refundNumber,
    );
    expect(
      (await api.call('GET', '/api/payments/refunds/pending', { token: payer })).statusCode,
    ).toBe(403);
  });

  it('keeps four eyes: its requester may not approve it (403), another refund officer does, and the gateway completes it', async () => {
    const own = await api.call('POST', `/api/payments/refunds/${pending.id}/approve`, {
      token: officerA,
      headers: { 'accept-language': 'fr' },
      body: { reason: 'Trop-perçu vérifié' },
    });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.code).toBe('REFUND_OWN_APPROVAL');
    expect(own.json().error.message).toContain('un autre agent');
    expect(await statusOf(pending.id)).toBe('PENDING_APPROVAL');
    const approved = await api.call('POST', `/api/payments/refunds/${pending.id}/approve`, {
      token: officerB,
      body: { reason: 'Overpayment checked' },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    await until(pending.id, 'REFUNDED');
    const again = await api.call('POST', `/api/payments/refunds/${pending.id}/reject`, {
      token: officerB,
      body: { reason: 'Too late' },
    });
    expect(again.statusCode).toBe(409);
    expect((await list()).available).toBe('20.85');
  });

  it("prints the refund's receipt in the holder's language, English and French", async () => {
    const receipt = async () => {
      const answer = await api.call('GET', `/api/payments/refunds/${first.id}/receipt`, {
        token: payer,
      });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['content-type']).toBe('application/pdf');
      return extractPdfText(answer.rawPayload);
    };
    const en = await receipt();
    const enTexts = textsOf('en') as { refund: { receipt: Record<string, string> } };
    assertReadablePdf(en, {
      language: 'en',
      labels: [enTexts.refund.receipt.number!, enTexts.refund.receipt.originalReceipt!],
      valueX: REFUND_RECEIPT_VALUE_X,
      names: ['Ana Payer', 'Payable test'],
    });
    expect(en.text).toContain(first.refundNumber);
    expect(en.text).toContain('Overpayment');
    expect(en.text).toContain('Back to the card');
    expect(en.text).toMatch(/RC-\d{4}-\d+/);
    expect(en.text).toMatch(/NZD\s?10\.00/);
    // The holder's language is the refund's: in French, the same receipt reads in French.
    await api.tables
      .updateTable('payment_refund')
      .set({ language: 'fr' })
      .where('id', '=', first.id)
      .execute();
    const fr = await receipt();
    assertReadablePdf(fr, {
      language: 'fr',
      valueX: REFUND_RECEIPT_VALUE_X,
      names: ['Ana Payer', 'Payable test'],
    });
    expect(fr.text).toContain('Reçu de remboursement');
    expect(fr.text).toContain('Trop-perçu');
    expect(fr.text).toContain(first.refundNumber);
    // No receipt before the money is back, nor for someone who cannot see the document.
    const stranger = await api.issuer.token({ sub: 'stranger', groups: ['test-payable-submit'] });
    expect(
      (await api.call('GET', `/api/payments/refunds/${first.id}/receipt`, { token: stranger }))
        .statusCode,
    ).toBe(404);
  });
});
