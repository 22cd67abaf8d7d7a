import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signNotification } from '../../src/server/payments/sandbox/gateway';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { applicationsThrough } from '../support/personas';
import { submittedVisa } from '../support/submitted-applications';
import { messagesAbout } from '../support/inbox';

const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;

interface View {
  id: string;
  version: number;
  status: string;
  previousStatus?: string | null;
  allowedActions: string[];
  data: { fees?: Record<string, unknown> } & Record<string, unknown>;
}

interface Quote {
  documentStatus: string;
  currency: string;
  paid: string;
  refund: string;
  stage: string | null;
}

const OFFICER_ROLES = ['search', 'read', 'forward', 'grant'].map((role) => `${TYPE}-${role}`);

/**
 * Withdrawal by the holder after payment (docs/payments.md, "Withdrawal and refund rules"). The
 * visa's rules: the application fee (NZD 20) is refundable until verification starts, the issue
 * fee (NZD 50) until the verification ends; in full before verification, half during it,
 * nothing after. The quote the confirmation shows is what the withdrawal opens, once, whatever
 * races it; a decided application cannot be withdrawn.
 */
describe.each(databaseKinds())('withdrawal and its refund on %s', (kind) => {
  let api: ApiHarness;
  let applicant: string;
  let stranger: string;
  let verifier: string;
  let granter: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    const roles = ['submit', 'read', 'update', 'pay', 'cancel'].map((role) => `${TYPE}-${role}`);
    applicant = await api.tokenFor(roles, { sub: 'applicant-withdraws', name: 'Ana Withdraws' });
    stranger = await api.tokenFor(roles, { sub: 'applicant-other', name: 'Other Person' });
    verifier = await api.tokenFor(OFFICER_ROLES, { sub: 'officer-verifies', name: 'Vera Fier' });
    granter = await api.tokenFor(OFFICER_ROLES, { sub: 'officer-grants', name: 'Grant Er' });
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, token: string, body?: unknown) =>
    api.call(method, url, { token, body });
  const ok = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
    const response = await call(method, url, token, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as View;
  };
  const quote = async (id: string, token = applicant) => {
    const response = await call('GET', `/api/payments/${TYPE}/${id}/refund`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Quote;
  };
  const withdraw = (view: View, token = applicant) =>
    call('POST', `${BASE}/${view.id}/actions/withdraw`, token, { version: view.version });
  const act = (view: View, action: string, token: string, data?: unknown) =>
    ok('POST', `${BASE}/${view.id}/actions/${action}`, token, {
      version: view.version,
      ...(data ? { data } : {}),
    });
  const refundsOf = (id: string) =>
    api.tables.selectFrom('payment_refund').selectAll().where('document_id', '=', id).execute();

  /** An application paid by card, waiting for the verification officers. */
  async function paidApplication(): Promise<View> {
    const submitted = await submittedVisa(applicationsThrough(api), applicant);
    await ok('POST', `${BASE}/${submitted.id}/actions/initiate`, applicant, {
      version: submitted.version,
      data: { termsAccepted: true },
    });
    await payOnGateway(api, TYPE, submitted.id, applicant, 'Ana Withdraws');
    const paid = await ok('GET', `${BASE}/${submitted.id}`, applicant);
    expect(paid.status).toBe('PAID FOR VERIFICATION');
    return paid;
  }

  it('refunds in full before verification, once, under 50 concurrent withdrawals', async () => {
    const paid = await paidApplication();
    expect(paid.allowedActions).toContain('withdraw');
    expect(await quote(paid.id)).toEqual({
      documentStatus: 'PAID FOR VERIFICATION',
      currency: 'NZD',
      paid: '70.00',
      refund: '70.00',
      stage: 'before-verification',
    });
    // Someone else's application: an officer who sees it is refused, another applicant does
    // not even learn it exists; nothing changes.
    expect((await withdraw(paid, verifier)).statusCode).toBe(403);
    expect((await withdraw(paid, stranger)).statusCode).toBe(404);

    const answers = await Promise.all(Array.from({ length: 50 }, () => withdraw(paid)));
    const won = answers.filter((answer) => answer.statusCode === 200);
    expect(won).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.statusCode !== 200)) {
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error.message).toMatch(/changed by someone else|not possible/);
    }
    const withdrawn = won[0]!.json() as View;
    expect(withdrawn.status).toBe('WITHDRAWN');
    expect(withdrawn.allowedActions).not.toContain('withdraw');

    const refunds = await refundsOf(paid.id);
    expect(refunds).toHaveLength(1);
    const [refund] = refunds;
    const order = await api.tables
      .selectFrom('payment_order')
      .select('id')
      .where('document_id', '=', paid.id)
      .where('status', '=', 'APPROVED')
      .executeTakeFirstOrThrow();
    expect(refund).toMatchObject({
      method: 'card',
      order_id: order.id,
      currency: 'NZD',
      reason: 'withdrawal',
      idempotency_key: `withdraw:${paid.id}`,
      requested_by: 'applicant-withdraws',
    });
    // Under the approval threshold: sent to the gateway at once (it may have answered already).
    expect(['REQUESTED', 'REFUNDED']).toContain(refund!.status);
    expect(Number(refund!.amount_cents)).toBe(7000);
    // The document says it, and the holder is told.
    expect(withdrawn.data.fees).toMatchObject({
      refundAmount: '70.00',
      refundReference: refund!.refund_number,
    });
    const notices = await messagesAbout(api.server.database.db, paid.id);
    expect(notices.at(-1)?.body).toContain(`NZD 70.00`);
    expect(notices.at(-1)?.body).toContain(refund!.refund_number);
    // Nothing more once withdrawn: the quote says so too.
    expect((await withdraw(withdrawn)).statusCode).toBe(409);
    expect((await quote(paid.id)).refund).toBe('0.00');

    // The gateway completes it; its notification replayed 100 times changes nothing more: one
    // refund of 70.00, REFUNDED, and one notice of it.
    const completed = async () =>
      (await refundsOf(paid.id)).every((row) => row.status === 'REFUNDED');
    // Polled, not timed: the refund sender answers after the commit, however busy the machine.
    for (let i = 0; i < 600 && !(await completed()); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const sent = await api.tables
      .selectFrom('sandbox_gateway_refund')
      .selectAll()
      .where('refund_reference', '=', refund!.refund_number)
      .executeTakeFirstOrThrow();
    const report = JSON.stringify({
      refundId: sent.id,
      refundReference: sent.refund_reference,
      sessionId: sent.session_id,
      outcome: 'REFUNDED',
      amountCents: 7000,
      currency: 'NZD',
    });
    const replies = await Promise.all(
      Array.from({ length: 100 }, () =>
        api.app.inject({
          method: 'POST',
          url: '/api/payments/notify/sandbox/refunds',
          headers: {
            'content-type': 'application/json',
            'x-sandbox-signature': signNotification(api.config.payments.sandboxSecret, report),
          },
          payload: report,
        }),
      ),
    );
    expect(replies.map((reply) => reply.statusCode)).toEqual(Array(100).fill(200));
    const after = await refundsOf(paid.id);
    expect(after.map((row) => [row.status, Number(row.amount_cents)])).toEqual([
      ['REFUNDED', 7000],
    ]);
    const told = (await messagesAbout(api.server.database.db, paid.id)).filter((m) =>
      m.subject.includes(refund!.refund_number),
    );
    expect(told).toHaveLength(1);
  });

  it('refunds less in verification and nothing after it, as quoted', async () => {
    const verifying = await paidApplication();
    const verified = await act(verifying, 'verify', verifier);
    expect(verified.status).toBe('VERIFIED');
    const inVerification = await quote(verified.id);
    // The application fee was refundable before verification only; the issue fee at half.
    expect(inVerification).toMatchObject({ paid: '70.00', refund: '25.00' });
    const withdrawn = await withdraw(verified);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const [refund, ...more] = await refundsOf(verified.id);
    expect(more).toHaveLength(0);
    expect(Number(refund!.amount_cents)).toBe(2500);

    const forwarding = await paidApplication();
    const forwarded = await act(forwarding, 'forward', verifier);
    expect(forwarded.status).toBe('FORWARDED');
    expect(await quote(forwarded.id)).toMatchObject({ paid: '70.00', refund: '0.00', stage: null });
    const late = await withdraw(forwarded);
    expect(late.statusCode, late.body).toBe(200);
    expect((late.json() as View).status).toBe('WITHDRAWN');
    expect((late.json() as View).data.fees).toMatchObject({ refundAmount: '0.00' });
    expect(await refundsOf(forwarded.id)).toHaveLength(0);
  });

  it('refuses a withdrawal once decided, and one of a withdrawal and a grant racing wins', async () => {
    const paid = await paidApplication();
    const grantData = { issuance: { placeOfIssue: 'Apia' } };
    const granted = await act(paid, 'grant', granter, grantData);
    expect(granted.status).toBe('GRANTED');
    const refused = await withdraw(granted);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      'This action (Withdraw application) is not possible while the document is Granted',
    );
    // Said in the reader's language.
    const inFrench = await api.call('POST', `${BASE}/${granted.id}/actions/withdraw`, {
      token: applicant,
      body: { version: granted.version },
      headers: { 'accept-language': 'fr' },
    });
    expect(inFrench.statusCode).toBe(409);
    expect(inFrench.json().error.message).toMatch(/^Cette action \(Retirer la demande\)/);
    expect(await refundsOf(paid.id)).toHaveLength(0);

    const racing = await paidApplication();
    const [withdrawal, grant] = await Promise.all([
      withdraw(racing),
      call('POST', `${BASE}/${racing.id}/actions/grant`, granter, {
        version: racing.version,
        data: grantData,
      }),
    ]);
    const codes = [withdrawal.statusCode, grant.statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const final = await ok('GET', `${BASE}/${racing.id}`, applicant);
    const refunds = await refundsOf(racing.id);
    if (withdrawal.statusCode === 200) {
      expect(final.status).toBe('WITHDRAWN');
      expect(refunds).toHaveLength(1);
    } else {
      expect(final.status).toBe('GRANTED');
      expect(refunds).toHaveLength(0);
    }
  });
});
