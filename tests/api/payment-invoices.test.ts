import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, createCatalogEntries, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { insertAccount, messagesAbout } from '../support/inbox';
import { multipartFile } from '../support/multipart';
import { applicationsThrough } from '../support/personas';
import { assertReadablePdf, extractPdfText } from '../support/pdf-text';
import { CERTIFICATE_VALUE_X } from '../../src/server/documents/certificate-pdf';
import {
  invoiceData,
  submittedSponsorship,
  submittedVisa,
  type ApplicationsApi,
  type SubmittedApplication,
} from '../support/submitted-applications';

/**
 * Payment invoices (workflows/payment-invoice.json): a payer names submitted visa and sponsor
 * applications by number and pays them together; the applications move with the invoice
 * through the workflow's `links` and `fires`, in the invoice's own transaction, all or nothing.
 */
const INVOICES = '/api/evisa/payment-invoice';
const VISAS = '/api/evisa/visa-application';
const SPONSORS = '/api/evisa/sponsor-application';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT';
interface Invoice {
  id: string;
  version: number;
  number: string | null;
  status: string;
  data: {
    items: Array<Record<string, string>>;
    summary?: Record<string, string>;
  } & Record<string, unknown>;
  allowedActions: string[];
}
interface Application extends SubmittedApplication {
  data: SubmittedApplication['data'] & {
    fees: { total: string; amountPaid?: string; receiptReference?: string; lines: unknown[] };
  };
}
interface Problem {
  error: {
    code: string;
    message: string;
    fields?: Array<{ path: string; rule: string; message: string }>;
  };
}

const cents = (amount: string) => Math.round(Number(amount) * 100);
const amount = (c: number) => (c / 100).toFixed(2);

describe.each(databaseKinds())('payment invoices on %s', (kind) => {
  let api: ApiHarness;
  let payer: string;
  let otherPayer: string;
  let officer: string;
  let applications: ApplicationsApi;

  const payerRoles = [
    ...['search', 'create', 'read', 'update', 'modify', 'delete', 'print', 'upload'].map(
      (r) => `payment-invoice-${r}`,
    ),
    ...['submit', 'read', 'update', 'pay', 'cancel'].map((r) => `visa-application-${r}`),
    ...['submit', 'read', 'update', 'pay'].map((r) => `sponsor-application-${r}`),
  ];

  beforeAll(async () => {
    api = await startApiServer(kind);
    payer = await api.tokenFor(payerRoles, {
      sub: 'payer-mele',
      name: 'Mele Agent',
      email: 'agent@example.org',
    });
    otherPayer = await api.tokenFor(payerRoles, { sub: 'payer-other', name: 'Other Payer' });
    officer = await api.tokenFor(
      [
        ...['search', 'read', 'verify', 'query', 'print'].map((r) => `payment-invoice-${r}`),
        'visa-application-search',
        'visa-application-assign',
        'sponsor-application-search',
      ],
      { sub: 'officer-verifier', name: 'Vera Verifier' },
    );
    // Fees in cents on both types, so that totals adding floats would be a cent out.
    const manager = await api.tokenFor(['asypx-catalog-manage']);
    const courier = { name: 'Courier', status: true, automatic: true };
    await createCatalogEntries(api, manager, [
      ['document-fee', { ...courier, documentCode: 'VIS', code: 'CT1', amount: 0.1 }],
      ['document-fee', { ...courier, documentCode: 'SPORG', code: 'CT2', amount: 0.2 }],
    ]);
    applications = applicationsThrough(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (method: Method, url: string, token: string, body?: unknown) =>
    api.call(method, url, { token, body });
  const create = (numbers: readonly string[], token = payer, extra: object = {}) =>
    call('POST', INVOICES, token, {
      action: 'create',
      data: { ...invoiceData(numbers), ...extra },
    });
  const act = (
    doc: { id: string; version: number },
    action: string,
    token: string,
    body: object = {},
  ) =>
    call('POST', `${INVOICES}/${doc.id}/actions/${action}`, token, {
      version: doc.version,
      ...body,
    });
  const ok = async <T>(
    response: Promise<{ statusCode: number; body: string; json(): unknown }>,
  ) => {
    const answer = await response;
    expect(answer.statusCode, answer.body).toBeLessThan(300);
    return answer.json() as T;
  };
  const application = async (app: { id: string; data: unknown }): Promise<Application> => {
    const base =
      'sponsorType' in ((app.data as { sponsorship?: object }).sponsorship ?? {})
        ? SPONSORS
        : VISAS;
    return ok<Application>(call('GET', `${base}/${app.id}`, officer));
  };
  const historyOf = async (base: string, id: string) =>
    ok<Array<{ action: string; notes: string | null }>>(
      call('GET', `${base}/${id}/history`, officer),
    );
  const visa = () => submittedVisa(applications, payer);
  const sponsorship = () => submittedSponsorship(applications, payer);
  const numbers = (...apps: SubmittedApplication[]) => apps.map((a) => a.number);
  const problem = (response: { json(): unknown }) => (response.json() as Problem).error;

  it('prices the applications named from their frozen fees, to the cent, and takes them out of card payment', async () => {
    const [v, s] = [await visa(), await sponsorship()];
    expect([v.status, s.status]).toEqual(['SUBMITTED', 'SUBMITTED']);
    // What the client says about amounts is ignored: the server computes them.
    const data = invoiceData(numbers(v, s));
    const response = await call('POST', INVOICES, payer, {
      action: 'create',
      data: {
        ...data,
        items: data.items.map((item) => ({ ...item, amountToPay: '0.01', amountPaid: '999.00' })),
        summary: { totalFee: '0.01', amountPayable: '0.01', totalAmountToPay: '0.01' },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const invoice = response.json() as Invoice;
    expect(invoice.status).toBe('CREATED');
    expect(invoice.number).toMatch(/^INV-\d{4}-\d{6}$/);
    const expected = cents(v.data.fees!.total) + cents(s.data.fees!.total);
    expect(v.data.fees!.total).toMatch(/\.10$/);
    expect(s.data.fees!.total).toMatch(/\.20$/);
    expect(invoice.data.summary).toEqual({
      totalFee: amount(expected),
      amountPayable: amount(expected),
      totalAmountToPay: amount(expected),
    });
    expect(invoice.data.items).toEqual([
      expect.objectContaining({
        reference: v.number,
        document: 'visa-application',
        amountToPay: v.data.fees!.total,
        amountPaid: '0.00',
        // Each line names its applicant (the visa's, the sponsoring organisation), not the
        // payer who owns both applications (Mele Agent).
        payer: 'Sione Tui',
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      }),
      expect.objectContaining({
        reference: s.number,
        document: 'sponsor-application',
        amountToPay: s.data.fees!.total,
        payer: 'Lagoon Trading',
      }),
    ]);
    for (const app of [v, s]) expect((await application(app)).status).toBe('SUBMITTED FOR PAYMENT');
    const visaHistory = await historyOf(VISAS, v.id);
    expect(visaHistory.map((h) => h.action)).toContain('include');

    // A card payment on an application in an open invoice is refused, in words.
    const initiate = await call('POST', `${VISAS}/${v.id}/actions/initiate`, payer, {
      version: (await application(v)).version,
      data: { termsAccepted: true },
    });
    expect(initiate.statusCode).toBe(409);
    expect(problem(initiate).message).toContain('Submitted for payment');
    // And the e-invoice is there from the start: the number, each application, the total.
    const pdf = await call('GET', `${INVOICES}/${invoice.id}/certificate`, payer);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const text = await extractPdfText(pdf.rawPayload);
    assertReadablePdf(text, { language: 'en' });
    for (const expectedText of [invoice.number!, v.number, s.number, amount(expected)])
      expect(text.text).toContain(expectedText);
  });

  it('says where to pay and by when: the configured account, the creation date plus its term, the payer and their address', async () => {
    const manager = await api.tokenFor(['asypx-catalog-manage']);
    const daysFromToday = (days: number) => {
      const date = new Date();
      date.setUTCDate(date.getUTCDate() + days);
      return date.toISOString().slice(0, 10);
    };
    const dayMonthYear = (iso: string) => iso.split('-').reverse().join('/');
    const v = await visa();
    // What the client says of where to pay is not taken: the server writes it.
    const invoice = await ok<Invoice>(
      create([v.number], payer, { payTo: { accountNumber: '99-9999-9999999-99' } }),
    );
    const payTo = {
      payee: 'Immigration Service',
      // The payee's name is a text of the service's, given in French too.
      i18n: { fr: { payee: "Service de l'immigration" } },
      bank: 'Bank of the Island',
      accountNumber: '02-0100-0123456-00',
      swiftCode: 'BOISWSWA',
      reference: invoice.number,
      dueDate: daysFromToday(14),
    };
    expect(invoice.data.payTo).toEqual(payTo);
    expect((await ok<Invoice>(call('GET', `${INVOICES}/${invoice.id}`, payer))).data.payTo).toEqual(
      payTo,
    );
    // A payer whose account keeps French as its language.
    const frenchId = await insertAccount(api.server.database.db, {
      name: 'Léa Payeuse',
      email: 'lea.payeuse@example.org',
      data: {
        identity: { loginIdentifier: 'lea.payeuse', firstName: 'Léa', lastName: 'Payeuse' },
        preferences: { language: 'fr' },
      },
    });
    const frenchPayer = await api.tokenFor(payerRoles, {
      sub: frenchId,
      name: 'Léa Payeuse',
      email: 'lea.payeuse@example.org',
    });
    const frenchInvoice = await ok<Invoice>(
      create([(await submittedVisa(applications, frenchPayer)).number], frenchPayer),
    );

    for (const [language, words] of [
      [
        'en',
        {
          payee: 'Payee',
          payeeName: 'Immigration Service',
          account: 'Account number',
          due: 'Due date',
          reference: 'Reference to quote',
          address: 'Address',
          country: 'Samoa',
          items: 'Applications to pay',
        },
      ],
      [
        'fr',
        {
          payee: 'Bénéficiaire',
          payeeName: "Service de l'immigration",
          account: 'Numéro de compte',
          due: "Date d'échéance",
          reference: 'Référence à indiquer',
          address: 'Adresse',
          country: 'Samoa',
          items: 'Demandes à payer',
        },
      ],
    ] as const) {
      // The e-invoice is its holder's document, in the holder's language whoever prints it: the
      // French payer's in French, the other in English, whatever language the request asks for.
      const [holder, printed] = language === 'fr' ? [frenchPayer, frenchInvoice] : [payer, invoice];
      const pdf = await api.call('GET', `${INVOICES}/${printed.id}/certificate`, {
        token: holder,
        headers: { 'accept-language': language === 'fr' ? 'en' : 'fr' },
      });
      expect(pdf.statusCode, pdf.body).toBe(200);
      const text = await extractPdfText(pdf.rawPayload);
      // The bank's name is a name, in any language.
      assertReadablePdf(text, { language, valueX: CERTIFICATE_VALUE_X, names: [payTo.bank] });
      const lines = text.lines.map((line) => line.text);
      expect(lines).toEqual(
        expect.arrayContaining([
          `${words.payee}\t${words.payeeName}`,
          `${words.account}\t02-0100-0123456-00`,
          `${words.due}\t${dayMonthYear(payTo.dueDate)}`,
          `${words.reference}\t${printed.number}`,
          `${words.address}\t4 Beach Road`,
          'Apia',
          words.country,
        ]),
      );
      // The items' table opens its own section: its name is printed once.
      expect(lines.filter((line) => line.includes(words.items))).toHaveLength(1);
      // Where to pay, and by when, is on the first page of an invoice of one application.
      expect(text.lines.filter((line) => line.page === 1).map((line) => line.text)).toEqual(
        expect.arrayContaining([
          `${words.due}\t${dayMonthYear(payTo.dueDate)}`,
          `${words.reference}\t${printed.number}`,
        ]),
      );
    }

    // The catalogue manager gives a longer term: invoices made from now on are due later, the
    // one made before keeps what it was issued with.
    const found = await ok<{ items: Array<{ id: string; version: number; data: object }> }>(
      call('PATCH', '/api/catalog/v1/bank-account', manager, {}),
    );
    const entry = found.items[0]!;
    const edit = (version: number, paymentTermDays: number) =>
      ok<{ version: number }>(
        call('PUT', `/api/catalog/v1/bank-account/${entry.id}`, manager, {
          version,
          data: { ...entry.data, paymentTermDays },
        }),
      );
    const longer = await edit(entry.version, 30);
    try {
      const later = await ok<Invoice>(create([(await visa()).number]));
      expect(later.data.payTo).toMatchObject({ dueDate: daysFromToday(30) });
      expect(
        (await ok<Invoice>(call('GET', `${INVOICES}/${invoice.id}`, payer))).data.payTo,
      ).toEqual(payTo);
    } finally {
      await edit(longer.version, 14);
    }
  });

  it('refuses what cannot be paid, each with a clear error, and changes nothing', async () => {
    const [mine, foreign] = [await visa(), await submittedVisa(applications, otherPayer)];
    const invoiced = await visa();
    await ok(create([invoiced.number]));
    const before = await ok<{ total: number }>(call('PATCH', INVOICES, payer, {}));

    const unknown = await create(['VSA-1999-999999', mine.number]);
    expect(unknown.statusCode).toBe(400);
    expect(problem(unknown).fields).toEqual([
      expect.objectContaining({
        path: '/items/0/reference',
        rule: 'linkedUnknown',
        message: 'No application you may pay has the number VSA-1999-999999',
      }),
    ]);
    // Someone else's application is refused unless its holder named this payer (docs/payments.md,
    // "Paying for others"): the payer is told why, not sent to check a number they were given.
    const other = await create([foreign.number]);
    expect(other.statusCode).toBe(403);
    expect(problem(other)).toMatchObject({
      code: 'PAYER_NOT_NAMED',
      fields: [expect.objectContaining({ path: '/items/0/reference', rule: 'payerNotNamed' })],
    });
    // A number typed in lower case, with spaces, names the same application, written as it is.
    const lower = await visa();
    const typed = await ok<Invoice>(create([` ${lower.number.toLowerCase()} `]));
    expect(typed.data.items[0]!.reference).toBe(lower.number);
    await ok(act(typed, 'delete', payer));
    const twice = await create([mine.number, mine.number.toLowerCase()]);
    expect(twice.statusCode).toBe(400);
    expect(problem(twice).fields?.[0]).toMatchObject({
      path: '/items/1/reference',
      rule: 'linkedTwice',
    });
    const empty = await create([]);
    expect(empty.statusCode).toBe(400);
    expect(problem(empty).fields?.[0]).toMatchObject({ path: '/items', rule: 'minItems' });
    // Already in an open invoice: 409, naming the application and its status in words.
    const taken = await create([mine.number, invoiced.number]);
    expect(taken.statusCode).toBe(409);
    expect(problem(taken)).toMatchObject({
      code: 'LINK_NOT_ALLOWED',
      message: `${invoiced.number} cannot be paid by this invoice now: it is Submitted for payment. Nothing was changed.`,
    });
    expect(problem(taken).fields?.[0]).toMatchObject({
      path: '/items/1/reference',
      rule: 'linkedStatus',
    });
    // Not submitted any more (cancelled by its owner): refused the same way.
    const cancelled = await visa();
    await ok(
      call('POST', `${VISAS}/${cancelled.id}/actions/cancel`, payer, {
        version: cancelled.version,
      }),
    );
    const gone = await create([cancelled.number]);
    expect(gone.statusCode).toBe(409);
    expect(problem(gone).message).toContain('Cancelled');
    // French callers read it in French.
    const french = await api.call('POST', INVOICES, {
      token: payer,
      body: { action: 'create', data: invoiceData([invoiced.number]) },
      headers: { 'accept-language': 'fr' },
    });
    expect(problem(french).message).toBe(
      `${invoiced.number} ne peut pas être payée par cette facture maintenant : elle est à l'état Soumis pour paiement. Rien n'a été modifié.`,
    );

    // Nothing of the refused invoices exists, and the valid application named was not moved.
    expect((await ok<{ total: number }>(call('PATCH', INVOICES, payer, {}))).total).toBe(
      before.total,
    );
    expect((await application(mine)).status).toBe('SUBMITTED');
    expect((await historyOf(VISAS, mine.id)).map((h) => h.action)).not.toContain('include');
  });

  it('says why a number cannot be paid as it is typed, before anything is created', async () => {
    const [mine, foreign, taken] = [
      await visa(),
      await submittedVisa(applications, otherPayer),
      await visa(),
    ];
    await ok(create([taken.number]));
    const derive = (references: readonly string[], id?: string) =>
      ok<{
        values: Record<string, unknown>;
        problems: Array<{ path: string; rule: string; message: string; params: object }>;
      }>(
        call('POST', `${INVOICES}/derive`, payer, {
          data: invoiceData(references),
          ...(id ? { id } : {}),
        }),
      );
    const answer = await derive([
      mine.number,
      'VA-1999-999999',
      foreign.number,
      taken.number,
      mine.number.toLowerCase(),
    ]);
    expect(answer.problems).toEqual([
      {
        path: '/items/4/reference',
        rule: 'linkedTwice',
        message: 'validation.linkedTwice',
        params: { number: mine.number },
      },
      {
        path: '/items/1/reference',
        rule: 'linkedUnknown',
        message: 'validation.linkedUnknown',
        params: { number: 'VA-1999-999999' },
      },
      // Someone else's application, whose holder did not name this payer.
      {
        path: '/items/2/reference',
        rule: 'payerNotNamed',
        message: 'validation.payerNotNamed',
        params: { number: foreign.number },
      },
      {
        path: '/items/3/reference',
        rule: 'linkedStatus',
        message: 'validation.linkedStatus',
        params: { number: taken.number, status: 'SUBMITTED FOR PAYMENT' },
      },
    ]);
    // What the payer may see is filled in (the one in another invoice says whose it is); the
    // unknown, foreign and repeated numbers are left empty.
    const items = (answer.values['/items'] as Array<Record<string, string>>).map((i) => i.payer);
    expect(items).toEqual(['Sione Tui', undefined, undefined, 'Sione Tui', undefined]);

    // An invoice's own applications are not refused while it is edited.
    const invoice = await ok<Invoice>(create([mine.number]));
    expect((await derive([mine.number], invoice.id)).problems).toEqual([]);
  });

  it('gives an application to exactly one of two invoices racing for it', async () => {
    const v = await visa();
    const [a, b] = await Promise.all([create([v.number]), create([v.number])]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const app = await application(v);
    expect(app.status).toBe('SUBMITTED FOR PAYMENT');
    expect((await historyOf(VISAS, v.id)).filter((h) => h.action === 'include')).toHaveLength(1);
  });

  it('lets either a card payment or an invoice have an application, never both', async () => {
    const v = await visa();
    const [card, invoice] = await Promise.all([
      call('POST', `${VISAS}/${v.id}/actions/initiate`, payer, {
        version: v.version,
        data: { termsAccepted: true },
      }),
      create([v.number]),
    ]);
    const codes = [card.statusCode, invoice.statusCode];
    expect(codes.filter((c) => c < 300)).toHaveLength(1);
    const app = await application(v);
    if (card.statusCode === 200) {
      expect(app.status).toBe('PURCHASE INITIATED');
      expect(problem(invoice).code).toBe('LINK_NOT_ALLOWED');
      expect(problem(invoice).message).toContain('Payment initiated');
    } else {
      expect(app.status).toBe('SUBMITTED FOR PAYMENT');
      // Refused by the machine, or for the version it read if the invoice wrote first.
      expect(card.statusCode).toBe(409);
      expect(['ACTION_NOT_ALLOWED', 'STALE_VERSION']).toContain(problem(card).code);
    }
    const actions = (await historyOf(VISAS, v.id)).map((h) => h.action);
    expect(actions.filter((a) => a === 'include' || a === 'initiate')).toHaveLength(1);
  });

  it('takes in and releases applications as the list changes while CREATED, and releases all on delete', async () => {
    const [v1, v2, s] = [await visa(), await visa(), await sponsorship()];
    let invoice = await ok<Invoice>(create(numbers(v1, v2)));
    invoice = await ok<Invoice>(
      act(invoice, 'update', payer, { data: { ...invoiceData(numbers(v2, s)) } }),
    );
    expect(invoice.data.items.map((i) => i.reference)).toEqual(numbers(v2, s));
    expect((await application(v1)).status).toBe('SUBMITTED');
    expect((await application(v2)).status).toBe('SUBMITTED FOR PAYMENT');
    expect((await application(s)).status).toBe('SUBMITTED FOR PAYMENT');
    expect((await historyOf(VISAS, v1.id)).map((h) => h.action)).toEqual(
      expect.arrayContaining(['include', 'release']),
    );
    // A stale version changes nothing.
    const stale = await act({ ...invoice, version: invoice.version - 1 }, 'delete', payer);
    expect(stale.statusCode).toBe(409);
    expect(problem(stale).code).toBe('STALE_VERSION');

    const deleted = await ok<Invoice>(act(invoice, 'delete', payer));
    expect(deleted.status).toBe('DELETED');
    for (const app of [v2, s]) expect((await application(app)).status).toBe('SUBMITTED');
    // Released: the owner may pay it by card again.
    const card = await call('POST', `${VISAS}/${v2.id}/actions/initiate`, payer, {
      version: (await application(v2)).version,
      data: { termsAccepted: true },
    });
    expect(card.statusCode, card.body).toBe(200);
  });

  it('is queried, answered and verified, paying every application with the invoice number as receipt', async () => {
    const [v, s] = [await visa(), await sponsorship()];
    let invoice = await ok<Invoice>(create(numbers(v, s)));
    // The proof is required, and must be an upload of the payer's of an accepted type.
    const noProof = await act(invoice, 'upload', payer, { data: { payment: {} } });
    expect(noProof.statusCode).toBe(400);
    expect(problem(noProof).fields?.[0]).toMatchObject({
      path: '/payment/advice',
      rule: 'required',
    });
    const text = multipartFile('advice.txt', 'text/plain', Buffer.from('paid'));
    const wrongType = await api.app.inject({
      method: 'POST',
      url: '/api/media',
      headers: { authorization: `Bearer ${payer}`, 'content-type': text.contentType },
      payload: text.body,
    });
    expect(wrongType.statusCode).toBe(400);
    expect(problem(wrongType).fields?.[0]).toMatchObject({ rule: 'fileType' });
    const advice = await applications.uploadPdf(payer);
    // The payer cannot verify their own payment.
    const byPayer = await act(invoice, 'verify', payer);
    expect(byPayer.statusCode).toBe(403);
    invoice = await ok<Invoice>(
      act(invoice, 'upload', payer, { data: { payment: { advice, bankReference: 'BT-889' } } }),
    );
    expect(invoice.status).toBe('SUBMITTED');
    // Nothing in the list can change once submitted.
    const late = await act(invoice, 'update', payer, { data: invoiceData(numbers(v)) });
    expect(late.statusCode).toBe(409);

    // The officer queries (notes required); the payer is told.
    const silent = await act(invoice, 'query', officer, { data: {} });
    expect(silent.statusCode).toBe(400);
    invoice = await ok<Invoice>(
      act(invoice, 'query', officer, {
        notes: 'The advice shows 10 NZD less than the total',
        data: { verification: { comments: 'Amount short' } },
      }),
    );
    expect(invoice.status).toBe('QUERIED');
    const inbox = await messagesAbout(api.server.database.db, invoice.id);
    expect(inbox).toEqual([
      expect.objectContaining({
        owner: 'payer-mele',
        body: expect.stringContaining('The advice shows 10 NZD less than the total'),
      }),
    ]);
    // It greets the payer by name and leads them to the reply screen.
    expect(inbox[0]!.body).toMatch(
      /^Hello Mele Agent,\nPayment invoice INV-\d{4}-\d{6} is now: Queried\./,
    );
    expect(inbox[0]!.body).toContain(`/#/accounts/invoice/replytoquery/${invoice.id}`);
    const fresh = await applications.uploadPdf(payer);
    invoice = await ok<Invoice>(
      act(invoice, 'reply', payer, {
        data: { payment: { advice: fresh, bankReference: 'BT-890' } },
      }),
    );
    expect(invoice.status).toBe('SUBMITTED');

    // The officer opens the payment advice the invoice names; another payer cannot.
    const proof = await call('GET', `/api/media/${String(fresh.id)}`, officer);
    expect(proof.statusCode, proof.body).toBe(200);
    expect(proof.headers['content-type']).toBe('application/pdf');
    expect((await call('GET', `/api/media/${String(fresh.id)}`, otherPayer)).statusCode).toBe(404);
    const received = {
      amountReceived: invoice.data.summary!.totalAmountToPay,
      bankReference: 'B-1',
    };
    invoice = await ok<Invoice>(
      act(invoice, 'verify', officer, { data: { verification: received } }),
    );
    expect(invoice.status).toBe('VERIFIED');
    for (const app of [v, s]) {
      const paid = await application(app);
      expect(paid.status).toBe('PAID FOR VERIFICATION');
      expect(paid.data.fees).toMatchObject({
        receiptReference: invoice.number,
        amountPaid: app.data.fees!.total,
      });
    }
    expect(invoice.data.items.map((i) => i.amountPaid)).toEqual([
      v.data.fees!.total,
      s.data.fees!.total,
    ]);
    // Paid: they wait in the officers' For assignment list.
    const assignable = await ok<{ items: Array<{ id: string }> }>(
      call('PATCH', VISAS, officer, { list: 'assignable' }),
    );
    expect(assignable.items.map((i) => i.id)).toContain(v.id);
  });

  it('verifies all or nothing: one application that cannot be settled refuses the whole verification', async () => {
    const [v, s] = [await visa(), await sponsorship()];
    let invoice = await ok<Invoice>(create(numbers(v, s)));
    const advice = await applications.uploadPdf(payer);
    invoice = await ok<Invoice>(act(invoice, 'upload', payer, { data: { payment: { advice } } }));
    // The sponsor application is moved behind the invoice's back (an administrator's repair).
    await api.tables
      .updateTable('document')
      .set({ status: 'CANCELLED' })
      .where('id', '=', s.id)
      .execute();
    const refused = await act(invoice, 'verify', officer, {
      data: {
        verification: {
          amountReceived: invoice.data.summary!.totalAmountToPay,
          bankReference: 'B-2',
        },
      },
    });
    expect(refused.statusCode).toBe(409);
    expect(problem(refused)).toMatchObject({ code: 'LINK_NOT_ALLOWED' });
    expect(problem(refused).message).toContain(s.number);
    expect((await application(v)).status).toBe('SUBMITTED FOR PAYMENT');
    expect((await ok<Invoice>(call('GET', `${INVOICES}/${invoice.id}`, officer))).status).toBe(
      'SUBMITTED',
    );
    expect((await historyOf(VISAS, v.id)).map((h) => h.action)).not.toContain('settle');
  });
});
