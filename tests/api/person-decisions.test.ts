import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { CHILD, paidVisa, VISA_APPLICANT_ROLES, visaOfficers } from '../support/granted-visa';
import { applicationsThrough } from '../support/personas';
import { visaApplication } from '../support/visa-data';

/**
 * A decision per person (the visa workflow's `persons`): the officer grants or refuses the
 * applicant and each dependant; only the people granted get an e-visa, and the issue fee of a
 * person refused is waived and refunded in the grant's transaction.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;

type Line = { code: string; amount: string; narration?: string; status?: string };
type View = {
  id: string;
  version: number;
  status: string;
  number: string | null;
  data: Record<string, unknown> & {
    fees?: { lines: Line[]; total: string; amountPaid?: string };
    dependants?: Array<{ visaNumber?: string }>;
    personDecisions?: Array<Record<string, unknown>>;
  };
};
type Fields = { error: { fields: Array<{ path: string; rule: string; message: string }> } };

const child = { ...CHILD, visaNumber: 'VA-2099-999997' };
const conditions = [{ code: 'C1', description: 'Must not work more than 20 hours a week' }];

describe.each(databaseKinds())('decisions per person on %s', (kind) => {
  let api: ApiHarness;
  let applicant: string;
  let verifier: string;
  let validator: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    applicant = await api.tokenFor(VISA_APPLICANT_ROLES, {
      sub: 'applicant-family',
      name: 'Ana Tui',
      email: 'ana.tui@example.org',
    });
    ({ verifier, validator } = await visaOfficers(api));
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, token: string, body?: unknown, fr = false) =>
    api.call(method, url, {
      token,
      body,
      ...(fr ? { headers: { 'accept-language': 'fr' } } : {}),
    });
  const ok = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
    const response = await call(method, url, token, body);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as View;
  };

  /** A work visa for the applicant and a child (both charged the issue fee), paid by card. */
  async function paidFamily(): Promise<View> {
    const data = { ...visaApplication('WRK', 'WV1Y'), dependants: [child] };
    return paidVisa<View>(applicationsThrough(api), applicant, data, (id) =>
      payOnGateway(api, TYPE, id, applicant, 'Ana Tui'),
    );
  }

  const grant = (view: View, personDecisions: unknown[], fr = false) =>
    call(
      'POST',
      `${BASE}/${view.id}/actions/grant`,
      verifier,
      { version: view.version, data: { personDecisions } },
      fr,
    );

  it('grants the applicant, refuses the child: one e-visa, the child’s fee waived and refunded', async () => {
    const paid = await paidFamily();
    expect(paid.status).toBe('PAID FOR VERIFICATION');
    const childLines = paid.data.fees!.lines.filter((l) => l.narration === 'Lani Tui');
    expect(childLines.length).toBeGreaterThan(0);

    // A person without a decision, a refusal without a reason: 400, translated, nothing changed.
    const missing = await grant(paid, [{ outcome: 'GRANTED', conditions }]);
    expect(missing.statusCode).toBe(400);
    expect((missing.json() as Fields).error.fields).toEqual([
      {
        path: '/personDecisions/1/outcome',
        rule: 'personDecision',
        message: 'Grant or refuse Lani Tui: every person of the application needs a decision',
      },
    ]);
    const unreasoned = await grant(paid, [{ outcome: 'GRANTED' }, { outcome: 'REFUSED' }], true);
    expect(unreasoned.statusCode).toBe(400);
    expect((unreasoned.json() as Fields).error.fields).toEqual([
      {
        path: '/personDecisions/1/reason',
        rule: 'refusalReason',
        message: expect.stringContaining('Indiquez pourquoi Lani Tui est refusé'),
      },
    ]);
    const nobody = await grant(paid, [
      { outcome: 'REFUSED', reason: 'No passport' },
      { outcome: 'REFUSED', reason: 'No passport' },
    ]);
    expect((nobody.json() as Fields).error.fields[0]).toMatchObject({
      path: '/personDecisions',
      rule: 'noPersonGranted',
      message: expect.stringContaining('reject the application'),
    });
    expect((await ok('GET', `${BASE}/${paid.id}`, verifier)).version).toBe(paid.version);

    const granted = await grant(paid, [
      { outcome: 'GRANTED', conditions },
      { outcome: 'REFUSED', reason: 'The child’s birth certificate was not given' },
    ]);
    expect(granted.statusCode, granted.body).toBe(200);
    const view = granted.json() as View;
    expect(view.status).toBe('GRANTED');
    // Each line of the child's is waived; the others stay paid.
    const lines = view.data.fees!.lines;
    expect(lines.filter((l) => l.narration === 'Lani Tui').map((l) => l.status)).toEqual(
      childLines.map(() => 'WAIVED'),
    );
    expect(lines.filter((l) => l.narration !== 'Lani Tui').every((l) => l.status === 'PAID')).toBe(
      true,
    );
    const cents = childLines.reduce((sum, l) => sum + Math.round(Number(l.amount) * 100), 0);
    const refunds = await api.server.database.db
      .selectFrom('payment_refund')
      .selectAll()
      .where('document_id', '=', paid.id)
      .execute();
    const order = await api.server.database.db
      .selectFrom('payment_order')
      .select('id')
      .where('document_id', '=', paid.id)
      .where('status', '=', 'APPROVED')
      .executeTakeFirstOrThrow();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      method: 'card',
      order_id: order.id,
      reason: 'person-refused',
      idempotency_key: `persons:${paid.id}`,
    });
    // Under the approval threshold: sent to the gateway at once (it may have answered already).
    expect(['REQUESTED', 'REFUNDED']).toContain(refunds[0]!.status);
    expect(Number(refunds[0]!.amount_cents)).toBe(cents);

    // Issued: the applicant's e-visa only; the child has no number and no e-visa.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const issued = await ok('POST', `${BASE}/${paid.id}/actions/issue`, validator, {
      version: view.version,
      data: {
        issuance: { effectiveDate: tomorrow, expiryDate: '2099-01-31', placeOfIssue: 'Apia' },
      },
    });
    expect(issued.status).toBe('ISSUED');
    expect(issued.data.dependants![0]).not.toHaveProperty('visaNumber');
    const own = await call('GET', `${BASE}/${paid.id}/certificate`, applicant);
    expect(own.statusCode).toBe(200);
    const theirs = await call(
      'GET',
      `${BASE}/${paid.id}/certificate/${child.visaNumber}`,
      applicant,
    );
    expect(theirs.statusCode).toBe(404);

    // The applicant reads each person's outcome: conditions for one, the reason for the other.
    const seen = await ok('GET', `${BASE}/${paid.id}`, applicant);
    expect(seen.data.personDecisions).toEqual([
      { person: 'Sione Tui', outcome: 'GRANTED', conditions },
      {
        person: 'Lani Tui',
        outcome: 'REFUSED',
        reason: 'The child’s birth certificate was not given',
      },
    ]);
  });

  it('refuses the applicant, grants the child: only the child’s e-visa exists and checks', async () => {
    const paid = await paidFamily();
    const granted = await grant(paid, [
      { outcome: 'REFUSED', reason: 'A previous overstay' },
      { outcome: 'GRANTED' },
    ]);
    expect(granted.statusCode, granted.body).toBe(200);
    const view = granted.json() as View;
    // The applicant's lines carry no narration: the application's own, they stay charged.
    expect(view.data.fees!.lines.every((l) => l.status === 'PAID')).toBe(true);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const issued = await ok('POST', `${BASE}/${paid.id}/actions/issue`, validator, {
      version: view.version,
      data: {
        issuance: { effectiveDate: tomorrow, expiryDate: '2099-01-31', placeOfIssue: 'Apia' },
      },
    });
    const number = issued.data.dependants![0]!.visaNumber!;
    expect(number).toMatch(/^VA-\d{4}-\d{6}$/);
    expect((await call('GET', `${BASE}/${paid.id}/certificate`, applicant)).statusCode).toBe(404);
    expect(
      (await call('GET', `${BASE}/${paid.id}/certificate/${number}`, applicant)).statusCode,
    ).toBe(200);
    const verify = (n: string, secondFactor: string) =>
      api.call('POST', '/api/evisa/verification', {
        body: { number: n, secondFactor },
        headers: { 'x-forwarded-for': '203.0.113.78' },
      });
    expect((await verify(issued.number!, 'PA1234567')).statusCode).toBe(404);
    expect((await verify(number, 'PC7654321')).statusCode).toBe(200);
  });
});
