import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { accountHolding, type TestAccount } from '../support/accounts';
import { databaseKinds } from '../support/databases';
import { applicationsThrough } from '../support/personas';
import {
  invoiceData,
  submittedSponsorship,
  submittedVisa,
  type ApplicationsApi,
  type SubmittedApplication,
} from '../support/submitted-applications';

/**
 * Paying for others (docs/payments.md): the holder of a visa or sponsor application names a
 * payer by sign-in name or e-mail address (`payerConsent`), who may then put it on their own
 * invoice (the invoice's `links.payerConsent`); anyone else's application is refused, a revoked
 * consent no longer counts, and who may pay is fixed once the application is on an invoice.
 */
const INVOICES = '/api/evisa/payment-invoice';
const VISAS = '/api/evisa/visa-application';
const SPONSORS = '/api/evisa/sponsor-application';

type Method = 'GET' | 'POST' | 'DELETE';
interface Payers {
  items: Array<{ id: string; payer: { subject: string; name: string; login: string | null } }>;
  mayChange: boolean;
}
interface Problem {
  error: { code: string; message: string; fields?: Array<{ path: string; message: string }> };
}
interface Invoice {
  id: string;
  version: number;
  number: string;
  status: string;
  data: { summary?: { totalAmountToPay?: string } };
}

describe.each(databaseKinds())('paying for others on %s', (kind) => {
  let api: ApiHarness;
  let holder: string;
  let payerAccount: TestAccount;
  let payer: string;
  let unnamed: string;
  let officer: string;
  let applications: ApplicationsApi;
  const invoiceRoles = ['create', 'read', 'update', 'delete', 'upload'].map(
    (r) => `payment-invoice-${r}`,
  );

  beforeAll(async () => {
    api = await startApiServer(kind);
    holder = await api.tokenFor(
      [
        ...['submit', 'read', 'update', 'pay'].map((r) => `visa-application-${r}`),
        ...['submit', 'read', 'update', 'pay'].map((r) => `sponsor-application-${r}`),
      ],
      { sub: 'holder-sione', name: 'Sione Tui' },
    );
    payerAccount = await accountHolding(api, {
      login: 'pat.payer',
      firstName: 'Pat',
      lastName: 'Payer',
      email: 'Pat.Payer@Example.org',
      roles: invoiceRoles,
    });
    payer = await api.tokenFor(invoiceRoles, { sub: payerAccount.id, name: payerAccount.name });
    unnamed = await api.tokenFor(invoiceRoles, { sub: 'payer-unnamed', name: 'Una Named' });
    officer = await api.tokenFor(
      [
        'payment-invoice-read',
        'payment-invoice-verify',
        'visa-application-search',
        'sponsor-application-search',
      ],
      { sub: 'officer-invoices', name: 'Vera Verifier' },
    );
    applications = applicationsThrough(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (method: Method, url: string, token: string, body?: unknown) =>
    api.call(method, url, { token, body });
  const ok = async <T>(
    response: Promise<{ statusCode: number; body: string; json(): unknown }>,
  ): Promise<T> => {
    const answer = await response;
    expect(answer.statusCode, answer.body).toBeLessThan(300);
    return answer.json() as T;
  };
  const problem = (response: { json(): unknown }) => (response.json() as Problem).error;
  const baseOf = (app: SubmittedApplication) =>
    'sponsorship' in app.data && !('visa' in app.data) ? SPONSORS : VISAS;
  const name = (app: SubmittedApplication, who: string, token = holder) =>
    call('POST', `${baseOf(app)}/${app.id}/payers`, token, { payer: who });
  const payersOf = (app: SubmittedApplication, token = holder) =>
    ok<Payers>(call('GET', `${baseOf(app)}/${app.id}/payers`, token));
  const revoke = (app: SubmittedApplication, consent: string, token = holder) =>
    call('DELETE', `${baseOf(app)}/${app.id}/payers/${consent}`, token);
  const statusOf = async (app: SubmittedApplication) =>
    (await ok<{ status: string }>(call('GET', `${baseOf(app)}/${app.id}`, holder))).status;
  const invoice = (numbers: string[], token = payer) =>
    call('POST', INVOICES, token, { action: 'create', data: invoiceData(numbers) });

  it('names a payer by sign-in name or e-mail address, refuses an unknown one, and shows the consent to both', async () => {
    const [v, s] = [
      await submittedVisa(applications, holder),
      await submittedSponsorship(applications, holder),
    ];
    const byLogin = await ok<Payers>(name(v, '  PAT.PAYER '));
    expect(byLogin.mayChange).toBe(true);
    expect(byLogin.items).toEqual([
      expect.objectContaining({
        payer: { subject: payerAccount.id, name: 'Pat Payer', login: 'pat.payer' },
      }),
    ]);
    // Naming them again changes nothing.
    expect((await ok<Payers>(name(v, 'pat.payer'))).items).toHaveLength(1);
    const byEmail = await ok<Payers>(name(s, 'pat.payer@example.org'));
    expect(byEmail.items.map((c) => c.payer.subject)).toEqual([payerAccount.id]);

    const unknown = await name(v, 'nobody@example.org');
    expect(unknown.statusCode).toBe(400);
    expect(problem(unknown).fields).toEqual([
      expect.objectContaining({
        path: '/payer',
        message: 'There is no account with the sign-in name or e-mail address nobody@example.org',
      }),
    ]);
    // In French too, and nothing changed.
    const french = await api.call('POST', `${VISAS}/${v.id}/payers`, {
      token: holder,
      body: { payer: 'nobody' },
      headers: { 'accept-language': 'fr' },
    });
    expect(problem(french).fields?.[0]?.message).toBe(
      "Aucun compte n'a l'identifiant ou l'adresse e-mail nobody",
    );
    expect((await payersOf(v)).items).toHaveLength(1);
    // Only the holder names payers: an officer who sees the application is refused.
    const byOfficer = await name(v, 'pat.payer', officer);
    expect(byOfficer.statusCode).toBe(403);
    expect(problem(byOfficer).code).toBe('NOT_OWNER');

    // The payer sees what they may pay, with its holder and amount.
    const payable = await ok<{ items: Array<Record<string, unknown>> }>(
      call('GET', '/api/evisa/payer-consents', payer),
    );
    expect(payable.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: v.id,
          number: v.number,
          status: 'SUBMITTED',
          holderName: 'Sione Tui',
          amountDue: v.data.fees!.total,
        }),
        expect.objectContaining({ id: s.id, number: s.number, type: 'sponsor-application' }),
      ]),
    );
    expect(
      (await ok<{ items: unknown[] }>(call('GET', '/api/evisa/payer-consents', unnamed))).items,
    ).toEqual([]);
    const history = await ok<Array<{ action: string; notes: string | null }>>(
      call('GET', `${VISAS}/${v.id}/history`, holder),
    );
    expect(history).toContainEqual(
      expect.objectContaining({ action: 'payer:named', notes: 'Pat Payer' }),
    );

    // Named, the payer invoices both and pays: they settle as with the payer's own.
    let paying = await ok<Invoice>(invoice([v.number, s.number]));
    expect(await statusOf(v)).toBe('SUBMITTED FOR PAYMENT');
    // On the payer's open invoice, the consent stays: revoking is refused, in words.
    const held = await revoke(v, byLogin.items[0]!.id);
    expect(held.statusCode).toBe(409);
    expect(problem(held)).toMatchObject({
      code: 'PAYER_CONSENT_CLOSED',
      message: 'Who may pay this application can no longer change: it is Submitted for payment',
    });
    const advice = await applications.uploadPdf(payer);
    paying = await ok<Invoice>(
      call('POST', `${INVOICES}/${paying.id}/actions/upload`, payer, {
        version: paying.version,
        data: { payment: { advice } },
      }),
    );
    paying = await ok<Invoice>(
      call('POST', `${INVOICES}/${paying.id}/actions/verify`, officer, {
        version: paying.version,
        // What the bank received: the total due, to the cent (docs/payments.md, "Reconciling").
        data: {
          verification: {
            amountReceived: paying.data.summary?.totalAmountToPay,
            bankReference: 'BT-PAYER',
          },
        },
      }),
    );
    expect(paying.status).toBe('VERIFIED');
    for (const app of [v, s]) {
      const paid = await ok<{ status: string; data: { fees: Record<string, string> } }>(
        call('GET', `${baseOf(app)}/${app.id}`, holder),
      );
      expect(paid.status).toBe('PAID FOR VERIFICATION');
      expect(paid.data.fees).toMatchObject({
        receiptReference: paying.number,
        amountPaid: app.data.fees!.total,
      });
    }
    // Paid: the consent shows still, and can no longer be revoked.
    const after = await payersOf(v);
    expect(after).toMatchObject({ mayChange: false, items: [{ id: byLogin.items[0]!.id }] });
    const late = await revoke(v, byLogin.items[0]!.id);
    expect(late.statusCode).toBe(409);
    expect(problem(late).message).toContain('Paid for verification');
  });

  it('refuses a payer nobody named, and one whose consent was revoked', async () => {
    const v = await submittedVisa(applications, holder);
    const refused = await invoice([v.number], unnamed);
    expect(refused.statusCode).toBe(403);
    expect(problem(refused)).toMatchObject({
      code: 'PAYER_NOT_NAMED',
      message: `You cannot pay ${v.number}: its holder has not named you as its payer`,
    });
    expect(await statusOf(v)).toBe('SUBMITTED');

    const named = await ok<Payers>(name(v, 'pat.payer'));
    // Only the holder revokes: the payer holds no role of the application's.
    expect((await revoke(v, named.items[0]!.id, payer)).statusCode).toBe(403);
    const revoked = await ok<Payers>(revoke(v, named.items[0]!.id));
    expect(revoked).toEqual({ items: [], mayChange: true });
    expect((await revoke(v, named.items[0]!.id)).statusCode).toBe(404);
    const history = await ok<Array<{ action: string }>>(
      call('GET', `${VISAS}/${v.id}/history`, holder),
    );
    expect(history.map((h) => h.action)).toEqual(
      expect.arrayContaining(['payer:named', 'payer:revoked']),
    );
    expect(
      (
        await ok<{ items: Array<{ id: string }> }>(call('GET', '/api/evisa/payer-consents', payer))
      ).items.map((i) => i.id),
    ).not.toContain(v.id);
    const afterRevoke = await invoice([v.number]);
    expect(afterRevoke.statusCode).toBe(403);
    expect(problem(afterRevoke).code).toBe('PAYER_NOT_NAMED');
    expect(await statusOf(v)).toBe('SUBMITTED');
  });

  it('lets one of a revoke and the payer invoicing win, never both', async () => {
    const v = await submittedVisa(applications, holder);
    const consent = (await ok<Payers>(name(v, 'pat.payer'))).items[0]!.id;
    const [revoking, invoicing] = await Promise.all([revoke(v, consent), invoice([v.number])]);
    const outcomes = [revoking.statusCode, invoicing.statusCode].sort();
    const status = await statusOf(v);
    if (invoicing.statusCode === 201) {
      expect(outcomes).toEqual([201, 409]);
      expect(status).toBe('SUBMITTED FOR PAYMENT');
      expect((await payersOf(v)).items).toHaveLength(1);
    } else {
      expect(outcomes).toEqual([200, 403]);
      expect(status).toBe('SUBMITTED');
      expect((await payersOf(v)).items).toEqual([]);
    }
  });
});
