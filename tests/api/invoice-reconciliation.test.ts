import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { insertAccount, messagesAbout } from '../support/inbox';
import { applicationsThrough } from '../support/personas';
import {
  invoiceData,
  submittedVisa,
  type ApplicationsApi,
  type SubmittedApplication,
} from '../support/submitted-applications';
import { fromCents, toCents } from '../../src/core/payments/money';
import type { PaymentReport } from '../../src/core/payments/report';

/**
 * Reconciling an invoice (docs/payments.md, "Reconciling an invoice"): the officer records what
 * the bank received and its reference; exact settles, short settles nothing and queries the
 * payer for the difference, over settles and opens a refund of the excess. Then the finance
 * officers' payment report, whose totals are the receipts less the refunds.
 */
const INVOICES = '/api/evisa/payment-invoice';
const VISAS = '/api/evisa/visa-application';
const REPORT = '/api/payments/report';

interface Invoice {
  id: string;
  version: number;
  number: string;
  status: string;
  data: { summary: { totalAmountToPay: string } } & Record<string, unknown>;
}
interface Problem {
  error: { code: string; fields?: Array<{ path: string; rule: string; message: string }> };
}

describe.each(databaseKinds())('invoice reconciliation on %s', (kind) => {
  let api: ApiHarness;
  let officer: string;
  let finance: string;
  let applications: ApplicationsApi;
  const payerRoles = [
    ...['search', 'create', 'read', 'delete', 'upload'].map((r) => `payment-invoice-${r}`),
    ...['submit', 'read', 'update'].map((r) => `visa-application-${r}`),
  ];

  beforeAll(async () => {
    api = await startApiServer(kind);
    officer = await api.tokenFor(
      [
        ...['search', 'read', 'verify', 'query'].map((r) => `payment-invoice-${r}`),
        'visa-application-read',
        'visa-application-search',
      ],
      { sub: 'officer-reconciler', name: 'Rua Reconciler' },
    );
    finance = await api.tokenFor(['finance'], { sub: 'officer-finance', name: 'Malia Finance' });
    applications = applicationsThrough(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  const ok = async <T>(
    response: Promise<{ statusCode: number; body: string; json(): unknown }>,
  ): Promise<T> => {
    const answer = await response;
    expect(answer.statusCode, answer.body).toBeLessThan(300);
    return answer.json() as T;
  };
  const act = (doc: { id: string; version: number }, action: string, token: string, body = {}) =>
    api.call('POST', `${INVOICES}/${doc.id}/actions/${action}`, {
      token,
      body: { version: doc.version, ...body },
    });
  const received = (amountReceived: string, bankReference = 'BNZ-2291') => ({
    data: { verification: { amountReceived, bankReference } },
  });
  const visaOf = (app: { id: string }) =>
    ok<SubmittedApplication & { data: { fees: { amountPaid?: string } } }>(
      api.call('GET', `${VISAS}/${app.id}`, { token: officer }),
    );

  /** A payer's invoice for `count` new visa applications, its payment advice submitted. */
  async function submittedInvoice(payer: string, count = 1) {
    const visas: SubmittedApplication[] = [];
    for (let i = 0; i < count; i++) visas.push(await submittedVisa(applications, payer));
    const created = await ok<Invoice>(
      api.call('POST', INVOICES, {
        token: payer,
        body: { action: 'create', data: invoiceData(visas.map((v) => v.number)) },
      }),
    );
    const advice = await applications.uploadPdf(payer);
    const invoice = await ok<Invoice>(
      act(created, 'upload', payer, { data: { payment: { advice } } }),
    );
    return { invoice, visas, due: toCents(invoice.data.summary.totalAmountToPay)! };
  }
  const payer = () => api.tokenFor(payerRoles, { sub: 'payer-reconciled', name: 'Mele Agent' });
  const settlements = (id: string) =>
    api.tables
      .selectFrom('payment_settlement')
      .selectAll()
      .where('document_id', '=', id)
      .orderBy('round')
      .execute();

  it('settles every application when the exact amount was received, and keeps what the bank said', async () => {
    const { invoice, visas, due } = await submittedInvoice(await payer(), 2);
    // Received and reference are required, checked by the server; nothing moves without them.
    const bare = await act(invoice, 'verify', officer, { data: {} });
    expect(bare.statusCode).toBe(400);
    expect((bare.json() as Problem).error.fields?.map((f) => [f.path, f.rule])).toEqual([
      ['/verification/amountReceived', 'required'],
      ['/verification/bankReference', 'required'],
    ]);
    const float = await act(invoice, 'verify', officer, received('12.345'));
    expect(float.statusCode).toBe(400);
    expect((await visaOf(visas[0]!)).status).toBe('SUBMITTED FOR PAYMENT');

    const verified = await ok<Invoice>(act(invoice, 'verify', officer, received(fromCents(due))));
    expect(verified.status).toBe('VERIFIED');
    for (const visa of visas) {
      const paid = await visaOf(visa);
      expect(paid.status).toBe('PAID FOR VERIFICATION');
      expect(paid.data.fees.amountPaid).toBe(visa.data.fees!.total);
    }
    expect(verified.data.verification).toMatchObject({
      amountReceived: fromCents(due),
      bankReference: 'BNZ-2291',
    });
    const [round] = await settlements(invoice.id);
    expect(round).toMatchObject({ outcome: 'EXACT', round: 1, bank_reference: 'BNZ-2291' });
    expect(Number(round!.received_cents)).toBe(due);
    // Verified is final: a short amount now queries nobody, the verification is refused.
    const again = await act(verified, 'verify', officer, received('1.00'));
    expect(again.statusCode).toBe(409);
    expect((again.json() as Problem).error.code).toBe('ACTION_NOT_ALLOWED');
    expect(await settlements(invoice.id)).toHaveLength(1);
  });

  it('settles nothing when short and asks the payer for the difference, in their language; a second verification of the new total settles', async () => {
    for (const language of ['en', 'fr'] as const) {
      const id = await insertAccount(api.server.database.db, {
        name: `Payer ${language}`,
        email: `payer.${language}@example.org`,
        data: {
          identity: {
            loginIdentifier: `short.${language}`,
            firstName: 'Payer',
            lastName: language,
          },
          preferences: { language },
        },
      });
      const token = await api.tokenFor(payerRoles, { sub: id, name: `Payer ${language}` });
      const { invoice, visas, due } = await submittedInvoice(token);
      expect(due).toBeGreaterThan(1000);
      const short = fromCents(due - 1000);
      const queried = await ok<Invoice>(act(invoice, 'verify', officer, received(short)));
      expect(queried.status).toBe('QUERIED');
      expect((await visaOf(visas[0]!)).status).toBe('SUBMITTED FOR PAYMENT');
      const history = await ok<Array<{ action: string; notes: string | null }>>(
        api.call('GET', `${INVOICES}/${invoice.id}/history`, { token }),
      );
      const note = history.find((h) => h.action === 'query')?.notes;
      const [dueWords, shortWords] = [fromCents(due), short];
      const expected =
        language === 'en'
          ? `NZD 10.00 is missing: NZD ${shortWords} was received of NZD ${dueWords} due`
          : `Il manque 10,00 NZD : ${shortWords.replace('.', ',')} NZD reçus sur ${dueWords.replace('.', ',')} NZD dus`;
      expect(note).toContain(expected);
      // The payer is told, in the same words, where to reply.
      const inbox = await messagesAbout(api.server.database.db, invoice.id);
      expect(inbox.at(-1)?.body).toContain(expected);
      expect((await settlements(invoice.id)).map((s) => s.outcome)).toEqual(['SHORT']);

      // The payer pays the difference and replies; the officer verifies the new total.
      const advice = await applications.uploadPdf(token);
      const replied = await ok<Invoice>(
        act(queried, 'reply', token, { data: { payment: { advice, bankReference: 'TOP-UP' } } }),
      );
      expect(replied.status).toBe('SUBMITTED');
      const verified = await ok<Invoice>(
        act(replied, 'verify', officer, received(fromCents(due), 'BNZ-2291+2304')),
      );
      expect(verified.status).toBe('VERIFIED');
      expect((await visaOf(visas[0]!)).status).toBe('PAID FOR VERIFICATION');
      expect((await settlements(invoice.id)).map((s) => [s.round, s.outcome])).toEqual([
        [1, 'SHORT'],
        [2, 'EXACT'],
      ]);
    }
  });

  it('settles an overpaid invoice and opens a refund of exactly the excess', async () => {
    const { invoice, visas, due } = await submittedInvoice(await payer());
    // Two officers verify at once: one wins, the other is refused, one refund is opened.
    const [first, second] = await Promise.all(
      [officer, officer].map((token) =>
        act(invoice, 'verify', token, received(fromCents(due + 2550))),
      ),
    );
    expect([first!.statusCode, second!.statusCode].sort()).toEqual([200, 409]);
    const verified = (first!.statusCode === 200 ? first! : second!).json() as Invoice;
    expect(verified.status).toBe('VERIFIED');
    expect((await visaOf(visas[0]!)).status).toBe('PAID FOR VERIFICATION');
    const refunds = await api.tables
      .selectFrom('payment_refund')
      .selectAll()
      .where('document_id', '=', invoice.id)
      .execute();
    expect(refunds).toEqual([
      expect.objectContaining({
        method: 'transfer',
        reason: 'overpayment',
        status: 'REQUESTED',
        currency: 'NZD',
        idempotency_key: `overpayment:${invoice.id}:1`,
      }),
    ]);
    expect(Number(refunds[0]!.amount_cents)).toBe(2550);
    const [round] = await settlements(invoice.id);
    expect(round).toMatchObject({ outcome: 'OVER' });
    expect(round!.lines).toContainEqual({ code: null, amount: '25.50' });
  });

  it("reports receipts by day, method and fee code, refunds netted, to finance officers only, and exports them as CSV in the reader's language", async () => {
    // What the report says of a past fortnight is arranged here: a card order approved, an
    // invoice settled (an overpaid one, its excess as a line) and a refund completed.
    const token = await payer();
    const cardVisa = await submittedVisa(applications, token);
    await api.tables
      .insertInto('payment_order')
      .values({
        document_id: cardVisa.id,
        document_type: 'visa-application',
        order_reference: `${cardVisa.number}-P1`,
        status: 'APPROVED',
        currency: 'NZD',
        amount_cents: 12010,
        amount_paid_cents: 12010,
        items: JSON.stringify([
          {
            code: 'XCARD',
            name: 'Card test fee',
            amount: '120.00',
            i18n: { fr: { name: 'Frais de test' } },
          },
          { code: 'XCOUR', name: 'Courier', amount: '0.10' },
        ]),
        receipt_reference: `R-${cardVisa.number}`,
        paid_at: '2021-03-01T23:30:00Z',
        created_by: 'payer-reconciled',
      })
      .execute();
    const { invoice, due } = await submittedInvoice(token);
    await ok(act(invoice, 'verify', officer, received(fromCents(due + 100))));
    const [settled] = await settlements(invoice.id);
    await api.tables
      .updateTable('payment_settlement')
      .set({ verified_at: '2021-03-02T10:00:00Z' })
      .where('id', '=', settled!.id)
      .execute();
    // The overpayment's refund completed (as the refund service would mark it).
    await api.tables
      .updateTable('payment_refund')
      .set({ status: 'REFUNDED', completed_at: '2021-03-03T09:00:00Z' })
      .where('document_id', '=', invoice.id)
      .execute();
    // And another completed refund, of the card order, inserted directly.
    await api.tables
      .insertInto('payment_refund')
      .values({
        refund_number: 'RF-2021-900001',
        document_type: 'visa-application',
        document_id: cardVisa.id,
        method: 'card',
        status: 'REFUNDED',
        currency: 'NZD',
        amount_cents: 2000,
        reason: 'withdrawal',
        requested_by: 'officer-finance',
        completed_at: '2021-03-03T12:00:00Z',
      })
      .execute();

    const range = '?from=2021-03-01&to=2021-03-07';
    expect((await api.call('GET', `${REPORT}${range}`, { token: officer })).statusCode).toBe(403);
    expect(
      (await api.call('GET', `${REPORT}?from=2021-03-07&to=2021-03-01`, { token: finance }))
        .statusCode,
    ).toBe(400);
    expect((await api.call('GET', `${REPORT}?from=yesterday`, { token: finance })).statusCode).toBe(
      400,
    );
    const report = await ok<PaymentReport>(
      api.call('GET', `${REPORT}${range}`, { token: finance }),
    );

    // The receipts in the range, read from the tables: the report adds them up the same.
    const orders = await api.tables
      .selectFrom('payment_order')
      .select(['amount_paid_cents'])
      .where('status', '=', 'APPROVED')
      .where(sql<boolean>`paid_at >= '2021-03-01' and paid_at < '2021-03-08'`)
      .execute();
    const transfers = await api.tables
      .selectFrom('payment_settlement')
      .select(['received_cents'])
      .where('outcome', '<>', 'SHORT')
      .where(sql<boolean>`verified_at >= '2021-03-01' and verified_at < '2021-03-08'`)
      .execute();
    const refunded = await api.tables
      .selectFrom('payment_refund')
      .select(['amount_cents'])
      .where('status', '=', 'REFUNDED')
      .where(sql<boolean>`completed_at >= '2021-03-01' and completed_at < '2021-03-08'`)
      .execute();
    const sum = (values: Array<string | null>) => values.reduce((a, v) => a + Number(v), 0);
    const receipts =
      sum(orders.map((o) => o.amount_paid_cents)) + sum(transfers.map((t) => t.received_cents));
    const refunds = sum(refunded.map((r) => r.amount_cents));
    expect(receipts).toBe(12010 + due + 100);
    expect(refunds).toBe(100 + 2000);
    expect(report.totals).toEqual([
      {
        currency: 'NZD',
        received: fromCents(receipts),
        refunded: fromCents(refunds),
        net: fromCents(receipts - refunds),
        payments: 2,
        refunds: 2,
      },
    ]);
    // By day (UTC): the card on the 1st, the transfer on the 2nd, both refunds on the 3rd.
    expect(report.days.map((d) => [d.day, d.received, d.refunded, d.net])).toEqual([
      ['2021-03-01', '120.10', '0.00', '120.10'],
      ['2021-03-02', fromCents(due + 100), '0.00', fromCents(due + 100)],
      ['2021-03-03', '0.00', '21.00', '-21.00'],
    ]);
    // By method: the card's refund against the card, the excess's against the invoices.
    expect(report.methods.map((m) => [m.method, m.label, m.received, m.refunded, m.net])).toEqual([
      ['card', 'Card', '120.10', '20.00', '100.10'],
      ['invoice', 'Invoice (bank transfer)', fromCents(due + 100), '1.00', fromCents(due)],
    ]);
    // By fee code: they add up to what was received, the excess a line of its own.
    const byFee = new Map(report.fees.map((f) => [f.code, f]));
    expect(byFee.get('XCOUR')?.received).toBe('0.10');
    expect(byFee.get(null)).toMatchObject({
      label: 'Excess received (refunded)',
      received: '1.00',
    });
    expect(sum(report.fees.map((f) => String(toCents(f.received))))).toBe(receipts);
    const signed = (amount: string) =>
      amount.startsWith('-') ? -toCents(amount.slice(1))! : toCents(amount)!;
    const daysNet = report.days.reduce((total, d) => total + signed(d.net), 0);
    expect(fromCents(daysNet)).toBe(report.totals[0]!.net);

    // The CSV reads back: headers and names in the reader's language, amounts with a point.
    for (const [language, header, card, fee] of [
      [
        'en',
        'Group,Item,Currency,Received,Refunded,Net,Payments,Refunds',
        'By method,Card,NZD,120.10,20.00,100.10,1,1',
        'By fee,XCARD Card test fee,NZD,120.00',
      ],
      [
        'fr',
        'Groupe,Élément,Devise,Reçu,Remboursé,Net,Paiements,Remboursements',
        'Par mode de paiement,Carte,NZD,120.10,20.00,100.10,1,1',
        'Par frais,XCARD Frais de test,NZD,120.00',
      ],
    ] as const) {
      const csv = await api.call('GET', `${REPORT}/csv${range}`, {
        token: finance,
        headers: { 'accept-language': language },
      });
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.headers['content-type']).toContain('text/csv');
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe(header);
      expect(lines).toContain(card);
      expect(lines.some((l) => l.startsWith(fee))).toBe(true);
      const total = lines.at(-1)!.split(',');
      expect(total.slice(2, 6)).toEqual([
        'NZD',
        fromCents(receipts),
        fromCents(refunds),
        fromCents(receipts - refunds),
      ]);
    }
  });
});
