import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpMailProvider } from '../../src/server/notifications/providers';
import { startOutbox } from '../../src/server/notifications/worker';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { CHILD } from '../support/granted-visa';
import { messagesAbout } from '../support/inbox';
import { multipartFile } from '../support/multipart';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';
import { answerAll, sponsorApplication } from '../support/sponsor-data';
import { visaApplication } from '../support/visa-data';
import { assertReadablePdf, extractPdfText } from '../support/pdf-text';
import { CERTIFICATE_VALUE_X } from '../../src/server/documents/certificate-pdf';
import { holderLookup } from '../../src/server/documents/store/numbered-in-data';
import { RECEIPT_VALUE_X } from '../../src/server/payments/receipt-pdf';

/**
 * The visa module on the seeded reference data: questions and attachments come from the
 * catalogues of the chosen document, the fees from the fee catalogues valid at submission, a
 * sponsor reference must name a granted, unexpired sponsorship, an issue needs its issuance
 * details, and an issued visa is a PDF with a QR code, e-mailed to the applicant at dispatch.
 * Every refusal leaves the document, its versions and its history as they were.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(300, 32),
  Buffer.from('%%EOF\n'),
]);
const silent = { info: () => {}, warn: () => {}, error: () => {} };

type View = {
  id: string;
  version: number;
  status: string;
  number: string | null;
  data: Record<string, unknown> & {
    characterQuestions?: Array<{ code: string; question: string; rank: number; answer?: boolean }>;
    documents?: Array<{ code: string; mandatory: boolean; file?: unknown }>;
    fees?: { lines: Array<{ code: string; amount: string; narration?: string }>; total: string };
  };
};

describe.each(databaseKinds())('visa applications on %s', (kind) => {
  let api: ApiHarness;
  let smtp: TestSmtpServer;
  let applicant: string;
  let other: string;
  let verifier: string;
  let validator: string;
  let manager: string;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    // The server's own worker polls no outbox: the tests deliver it to their mail server when
    // they read the mail (visaMail), and a poll between the dispatch and that read would have
    // set the e-mail aside, there being no mail provider configured.
    api = await startApiServer(kind, {}, undefined, { intervalMs: 0 });
    applicant = await api.tokenFor(
      [
        'visa-application-submit',
        'visa-application-read',
        'visa-application-update',
        'visa-application-pay',
        'visa-application-print',
      ],
      { sub: 'applicant-ana', name: 'Ana Tui', email: 'ana.tui@example.org' },
    );
    other = await api.tokenFor(['visa-application-submit', 'visa-application-read'], {
      sub: 'applicant-other',
    });
    verifier = await api.tokenFor(
      [
        'visa-application-search',
        'visa-application-assign',
        'visa-application-query',
        'visa-application-forward',
        'visa-application-grant',
        'visa-application-read',
        'sponsor-application-grant',
        'sponsor-application-search',
      ],
      { sub: 'officer-verifier' },
    );
    validator = await api.tokenFor(
      [
        'visa-application-search',
        'visa-application-issue',
        'visa-application-escalate',
        'visa-application-dispatch',
        'visa-application-print',
      ],
      { sub: 'officer-validator' },
    );
    manager = await api.tokenFor(['asypx-catalog-manage']);
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    token: string,
    body?: unknown,
  ) => api.call(method, url, { token, body });
  const ok = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    token: string,
    body?: unknown,
  ) => {
    const response = await call(method, url, token, body);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as View;
  };
  const upload = async (token: string, content = PDF, type = 'application/pdf') => {
    const { body: payload, contentType } = multipartFile('scan.pdf', type, content);
    return api.app.inject({
      method: 'POST',
      url: '/api/media',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': contentType,
      },
      payload,
    });
  };
  /** The stored document, its versions and its history, to show a refusal changed nothing. */
  const snapshot = async (id: string) => ({
    document: (await call('GET', `${BASE}/${id}`, verifier)).json() as View,
    versions: (await call('GET', `${BASE}/${id}/versions`, verifier)).json() as unknown[],
    history: (await call('GET', `${BASE}/${id}/history`, verifier)).json() as unknown[],
  });
  const problems = (response: { json(): unknown }) =>
    (
      response.json() as {
        error: { fields: Array<{ path: string; rule: string; message: string }> };
      }
    ).error.fields;

  /** A stored application for VIS/VV30 with every question answered and every file uploaded. */
  async function completeApplication(
    subDocument = 'VV30',
    extra: Record<string, unknown> = {},
    document = 'VIS',
  ) {
    const data = { ...visaApplication(document, subDocument), ...extra };
    const stored = await ok('POST', BASE, applicant, { data });
    const file = (await upload(applicant)).json() as Record<string, unknown>;
    const filled = {
      ...data,
      characterQuestions: stored.data.characterQuestions!.map((q) => ({ ...q, answer: false })),
      documents: stored.data.documents!.map((d) => ({ ...d, file })),
    };
    return { stored, filled };
  }

  /** Submits and pays the way an applicant does: initiate, the gateway's page, its report. */
  async function pay(stored: View, filled: Record<string, unknown>): Promise<View> {
    const submitted = await ok('POST', `${BASE}/${stored.id}/actions/submit`, applicant, {
      version: stored.version,
      data: filled,
    });
    expect(submitted.status).toBe('SUBMITTED');
    const initiated = await ok('POST', `${BASE}/${stored.id}/actions/initiate`, applicant, {
      version: submitted.version,
      data: { termsAccepted: true },
    });
    await payOnGateway(api, TYPE, stored.id, applicant, 'Ana Tui');
    const view = await ok('GET', `${BASE}/${initiated.id}`, applicant);
    expect(view.status).toBe('PAID FOR VERIFICATION');
    return view;
  }

  /** Issues an application (forwarded) for dates from `effectiveDate`, today unless said, to 2099. */
  const issue = (view: View, effectiveDate = new Date().toISOString().slice(0, 10)) =>
    ok('POST', `${BASE}/${view.id}/actions/issue`, validator, {
      version: view.version,
      data: { issuance: { effectiveDate, expiryDate: '2099-01-31', placeOfIssue: 'Port Town' } },
    });

  /**
   * What the outbox sends the applicant once an application is dispatched: the e-mail carrying
   * the e-visas, and the message of the portal's message area about it.
   */
  async function visaMail(id: string, number: string | null) {
    smtp.received.length = 0;
    const worker = startOutbox({
      db: api.server.database.db,
      mail: smtpMailProvider({ url: smtp.url, from: 'no-reply@immigration.example' }),
      log: silent,
      intervalMs: 0,
    });
    try {
      await worker.runOnce();
    } finally {
      await worker.stop();
    }
    const mail = smtp.received.find(
      (m) => m.to.includes('ana.tui@example.org') && m.attachments.length > 0,
    );
    const inbox = (await messagesAbout(api.server.database.db, id)).find(
      (m) => m.subject === `Your electronic visa ${number}`,
    )!;
    return { mail, inbox };
  }

  it('fills the questions and attachments of the chosen document from the catalogues', async () => {
    const data = {
      ...visaApplication('VIS', 'VV30'),
      // The browser cannot add a question of its own, nor reword one; its answers are kept.
      characterQuestions: [
        { code: 'CRIM', question: 'Reworded', rank: 9, answer: false },
        { code: 'MADE', question: 'Invented', rank: 1, answer: true },
      ],
    };
    const stored = await ok('POST', BASE, applicant, { data });
    const questions = stored.data.characterQuestions!;
    expect(questions.map((q) => q.code)).toEqual(
      expect.arrayContaining(['CRIM', 'CHRG', 'DEPT', 'REFU', 'TB', 'HLTH', 'RETN', 'FUNDS']),
    );
    expect(questions.map((q) => q.code)).not.toContain('MADE');
    expect(questions.map((q) => q.code)).not.toContain('OFFER');
    const crime = questions.find((q) => q.code === 'CRIM')!;
    expect(crime.answer).toBe(false);
    expect(crime.question).toBe(
      'Have you ever been convicted of a criminal offence in any country?',
    );
    expect(questions.map((q) => q.rank)).toEqual(questions.map((_, i) => i + 1));
    expect(stored.data.documents!.map((d) => [d.code, d.mandatory])).toEqual(
      expect.arrayContaining([
        ['PASS', true],
        ['PHOTO', true],
        ['BANK', true],
        ['TICK', true],
      ]),
    );
    // A work visa of three years adds its own sub-document question and attachment.
    const work = await ok('POST', `${BASE}/derive`, applicant, {
      data: visaApplication('WRK', 'WV3Y'),
    });
    const values = (work as unknown as { values: Record<string, View['data'][string]> }).values;
    const workQuestions = values['/characterQuestions'] as Array<{ code: string }>;
    expect(workQuestions.map((q) => q.code)).toEqual(expect.arrayContaining(['OFFER', 'SKILL']));
    const workFiles = values['/documents'] as Array<{ code: string; mandatory: boolean }>;
    expect(workFiles).toContainEqual({
      code: 'QUAL',
      name: expect.any(String),
      mandatory: true,
      i18n: { fr: { name: expect.any(String) } },
    });
  });

  it('previews questions and fees without storing anything', async () => {
    const count = async () =>
      Number(
        (
          await api.tables
            .selectFrom('document')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const answer = await call('POST', `${BASE}/derive`, applicant, {
      data: visaApplication('VIS', 'VV30'),
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const { values } = answer.json() as { values: Record<string, unknown> };
    expect(values['/fees']).toMatchObject({ currency: 'NZD', total: '70.00' });
    expect(await count()).toBe(before);
    expect((await call('POST', `${BASE}/derive`, applicant, { data: 'text' })).statusCode).toBe(
      400,
    );
    expect((await call('POST', `${BASE}/derive`, '', { data: {} })).statusCode).toBe(401);
  });

  it("keeps the person to declare's details only for a parent, guardian or spouse", async () => {
    // Typed for a spouse, then None chosen: nothing about nobody is checked (the passport
    // number would be refused) nor kept.
    const given = {
      status: 'NONE',
      familyName: 'Tui',
      givenName: 'Losa',
      passportNumber: 'not valid',
      address: { city: 'Apia' },
    };
    const { stored, filled } = await completeApplication('VV30', { family: given });
    expect(stored.data.family).toEqual({ status: 'NONE' });
    const submitted = await ok('POST', `${BASE}/${stored.id}/actions/submit`, applicant, {
      version: stored.version,
      data: filled,
    });
    expect(submitted.data.family).toEqual({ status: 'NONE' });
    // A spouse's are kept, and checked; the date of marriage only for a spouse.
    const spouse = {
      status: 'SPOUSE',
      familyName: 'Tui',
      givenName: 'Losa',
      marriageDate: '2015-06-01',
    };
    expect(
      (await ok('POST', BASE, applicant, { data: { ...filled, family: spouse } })).data.family,
    ).toEqual(spouse);
    const parent = { ...spouse, status: 'PARENT' };
    const { marriageDate: _date, ...withoutDate } = parent;
    expect(
      (await ok('POST', BASE, applicant, { data: { ...filled, family: parent } })).data.family,
    ).toEqual(withoutDate);
  });

  it('refuses unanswered questions and missing mandatory files, changing nothing', async () => {
    const { stored, filled } = await completeApplication();
    const before = await snapshot(stored.id);
    const unanswered = await call('POST', `${BASE}/${stored.id}/actions/submit`, applicant, {
      version: stored.version,
      data: {
        ...filled,
        characterQuestions: filled.characterQuestions.map((q, i) =>
          i === 0 ? { ...q, answer: undefined } : q,
        ),
      },
    });
    expect(unanswered.statusCode).toBe(400);
    expect(problems(unanswered)).toContainEqual(
      expect.objectContaining({
        path: '/characterQuestions',
        message: 'Please answer all Character Questions',
      }),
    );
    const noFile = await call('POST', `${BASE}/${stored.id}/actions/submit`, applicant, {
      version: stored.version,
      data: {
        ...filled,
        documents: filled.documents.map((d, i) => (i === 0 ? { ...d, file: undefined } : d)),
      },
    });
    expect(noFile.statusCode).toBe(400);
    expect(problems(noFile)).toContainEqual(
      expect.objectContaining({
        path: '/documents',
        message: 'Please upload every mandatory document',
      }),
    );
    // In French too.
    const french = await api.call('POST', `${BASE}/${stored.id}/actions/submit`, {
      token: applicant,
      headers: { 'accept-language': 'fr' },
      body: { version: stored.version, data: { ...filled, documents: [] } },
    });
    expect(problems(french)).toContainEqual(
      expect.objectContaining({ message: 'Veuillez téléverser chaque document obligatoire' }),
    );
    expect(await snapshot(stored.id)).toEqual(before);
  });

  it('refuses a file someone else uploaded, an oversized upload and a wrongly typed one', async () => {
    const { stored, filled } = await completeApplication();
    const before = await snapshot(stored.id);
    const theirs = (await upload(other)).json() as Record<string, unknown>;
    const borrowed = await call('PUT', `${BASE}/${stored.id}`, applicant, {
      version: stored.version,
      data: { ...filled, documents: filled.documents.map((d) => ({ ...d, file: theirs })) },
    });
    expect(borrowed.statusCode).toBe(400);
    expect(problems(borrowed)[0]).toMatchObject({ path: '/documents/0/file', rule: 'fileUnknown' });
    const tooLarge = await upload(
      applicant,
      Buffer.concat([PDF, Buffer.alloc(api.config.mediaMaxBytes + 1, 32)]),
    );
    expect(tooLarge.statusCode).toBe(413);
    const wrongType = await upload(applicant, Buffer.from('MZ not a pdf at all'));
    expect(wrongType.statusCode).toBe(400);
    expect(problems(wrongType)[0]).toMatchObject({ path: '/file', rule: 'fileType' });
    expect(await snapshot(stored.id)).toEqual(before);
  });

  it('accepts only a granted, unexpired sponsorship as sponsor reference', async () => {
    const SPONSORS = '/api/evisa/sponsor-application';
    const sponsor = await api.tokenFor(
      [
        'sponsor-application-submit',
        'sponsor-application-update',
        'sponsor-application-read',
        'sponsor-application-pay',
      ],
      { sub: 'sponsor-sam' },
    );
    /** A sponsorship applied for, answered, submitted and paid: PAID FOR VERIFICATION. */
    const sponsorship = async (type: 'SPORG' | 'SPPER') => {
      const stored = await ok('POST', SPONSORS, sponsor, { data: sponsorApplication(type) });
      const file = (await upload(sponsor)).json() as Record<string, unknown>;
      const { fees: _fees, ...given } = stored.data;
      const data = answerAll({ ...sponsorApplication(type), ...given }, file);
      const submitted = await ok('POST', `${SPONSORS}/${stored.id}/actions/submit`, sponsor, {
        version: stored.version,
        data,
      });
      expect(submitted.status).toBe('SUBMITTED');
      await ok('POST', `${SPONSORS}/${stored.id}/actions/initiate`, sponsor, {
        version: submitted.version,
        data: { termsAccepted: true },
      });
      const purchase = await call(
        'POST',
        `/api/payments/sponsor-application/${stored.id}/purchase`,
        sponsor,
      );
      expect(purchase.statusCode, purchase.body).toBe(200);
      const paid = await api.app.inject({
        method: 'POST',
        url: new URL((purchase.json() as { redirectUrl: string }).redirectUrl).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          cardNumber: '4111111111111111',
          cardName: 'Sam Sponsor',
          expiry: '12/39',
          cvc: '123',
        }).toString(),
      });
      expect(paid.statusCode, paid.body).toBe(303);
      const view = await ok('GET', `${SPONSORS}/${stored.id}`, sponsor);
      expect(view.status).toBe('PAID FOR VERIFICATION');
      return view;
    };
    /** Granted for the sponsor type's 3-year period: dated, and given its sponsorship number. */
    const grant = async (s: View, period: string) => {
      const granted = await ok('POST', `${SPONSORS}/${s.id}/actions/grant`, verifier, {
        version: s.version,
        data: { verification: { period } },
      });
      const header = granted.data.header as { reference: string; expiryDate: string };
      expect(header.reference).toMatch(/^SPN-\d{4}-\d{6}$/);
      return { ...granted, reference: header.reference };
    };
    const granted = await grant(await sponsorship('SPORG'), 'SPO3Y');
    const expired = await grant(await sponsorship('SPPER'), 'SPP3Y');
    // Three years on: its expiry date has passed.
    await api.tables
      .updateTable('document')
      .set({ data: sql`jsonb_set(data, '{header,expiryDate}', to_jsonb(${'2025-01-31'}::text))` })
      .where('id', '=', expired.id)
      .execute();
    const pending = await sponsorship('SPORG');

    const { stored, filled } = await completeApplication();
    const before = await snapshot(stored.id);
    for (const reference of ['SPN-1999-999999', expired.reference, pending.number!]) {
      const refused = await call('POST', `${BASE}/${stored.id}/actions/submit`, applicant, {
        version: stored.version,
        data: { ...filled, sponsorship: { sponsored: true, sponsorReference: reference } },
      });
      expect(refused.statusCode, reference).toBe(400);
      expect(problems(refused)).toContainEqual(
        expect.objectContaining({
          path: '/sponsorship/sponsorReference',
          message: 'Invalid Sponsor reference',
        }),
      );
    }
    expect(await snapshot(stored.id)).toEqual(before);
    // Named in lower case and with a sponsor typed in: the sponsorship's own name and type win.
    const submitted = await ok('POST', `${BASE}/${stored.id}/actions/submit`, applicant, {
      version: stored.version,
      data: {
        ...filled,
        sponsorship: {
          sponsored: true,
          sponsorReference: granted.reference.toLowerCase(),
          sponsorName: 'Someone Else',
          sponsorType: 'SPPER',
        },
      },
    });
    expect(submitted.status).toBe('SUBMITTED');
    expect(submitted.data.sponsorship).toMatchObject({
      sponsorName: 'Lagoon Trading Company Ltd',
      sponsorType: 'SPORG',
    });
  });

  it('accepts only catalogue entries valid today, a sub-document of the chosen document, and offers only those', async () => {
    const { stored, filled } = await completeApplication();
    const before = await snapshot(stored.id);
    const submitWith = (visa: Record<string, string>, extra: Record<string, unknown> = {}) =>
      call('POST', `${BASE}/${stored.id}/actions/submit`, applicant, {
        version: stored.version,
        data: { ...filled, visa, ...extra },
      });
    // A sub-document of another document (the residence permit's), then a document that is not.
    const otherDocuments = await submitWith({ document: 'VIS', subDocument: 'RP5Y' });
    expect(otherDocuments.statusCode).toBe(400);
    expect(problems(otherDocuments)).toContainEqual(
      expect.objectContaining({
        path: '/visa/subDocument',
        message: 'Choose a type and duration of the document chosen above',
      }),
    );
    const unknown = await submitWith({ document: 'NOPE', subDocument: 'VV30' });
    expect(unknown.statusCode).toBe(400);
    expect(problems(unknown)).toContainEqual(
      expect.objectContaining({
        path: '/visa/document',
        message: 'There is no such entry valid today',
      }),
    );
    // Every catalogue select is checked, in lists too: a dependant's nationality.
    const dependant = {
      relationship: 'CHILD',
      familyName: 'Tui',
      givenName: 'Lani',
      birthDate: '2015-02-01',
    };
    const country = await submitWith(
      { document: 'VIS', subDocument: 'VV30' },
      {
        dependants: [
          { ...dependant, nationality: 'WS' },
          { ...dependant, nationality: 'XQ' },
        ],
      },
    );
    expect(country.statusCode).toBe(400);
    expect(problems(country)).toEqual([
      expect.objectContaining({
        path: '/dependants/1/nationality',
        message: 'There is no such entry valid today',
      }),
    ]);
    expect(await snapshot(stored.id)).toEqual(before);

    // The form's select asks for the sub-documents of the chosen document only.
    const options = async (query: string) => {
      const response = await call(
        'GET',
        `/api/catalog/v1/sub-document/options?${query}`,
        applicant,
      );
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { items: Array<{ code: string }> }).items.map((o) => o.code);
    };
    const ofVisitorVisa = await options('documentCode=VIS&search=');
    expect(ofVisitorVisa).toContain('VV30');
    expect(ofVisitorVisa).not.toContain('RP5Y');
    expect(await options('search=')).toEqual(expect.arrayContaining(['VV30', 'RP5Y']));
    const badField = await call(
      'GET',
      '/api/catalog/v1/sub-document/options?colour=red',
      applicant,
    );
    expect(badField.statusCode).toBe(400);
  });

  it('finds the demo sponsorship granted through the document service', async () => {
    const granted = await api.call('PATCH', '/api/evisa/sponsor-application', {
      token: verifier,
      body: { criteria: [{ field: 'status', criterion: 'EQUAL', value: 'GRANTED' }] },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const names = (granted.json() as { items: Array<{ ownerName: string | null }> }).items;
    expect(names.length).toBeGreaterThan(0);
  });

  it('charges the fees valid at submission, per dependant, and keeps them when the catalogue changes', async () => {
    const dependant = {
      relationship: 'CHILD',
      familyName: 'Tui',
      givenName: 'Lani',
      birthDate: '2015-02-01',
    };
    const derived = await call('POST', `${BASE}/derive`, applicant, {
      data: {
        ...visaApplication('RES', 'RP5Y'),
        dependants: [dependant, { ...dependant, givenName: 'Mele' }],
      },
    });
    const fees = (derived.json() as { values: { '/fees': View['data']['fees'] } }).values['/fees']!;
    // The automatic application fee once, the issue fee for the applicant and each dependant;
    // the biometric fee is not automatic, so it is not charged.
    expect(fees.lines.map((l) => l.code).sort()).toEqual(['APP', 'ISS', 'ISS', 'ISS']);
    expect(fees.lines.filter((l) => l.narration).map((l) => l.narration)).toEqual(
      expect.arrayContaining(['Lani Tui', 'Mele Tui']),
    );
    const sum = fees.lines.reduce((total, l) => total + Math.round(Number(l.amount) * 100), 0);
    expect(Math.round(Number(fees.total) * 100)).toBe(sum);

    const { stored, filled } = await completeApplication();
    const submitted = await ok('POST', `${BASE}/${stored.id}/actions/submit`, applicant, {
      version: stored.version,
      data: filled,
    });
    expect(submitted.data.fees).toMatchObject({ total: '70.00', currency: 'NZD' });
    // A new automatic fee from now on: new applications pay it, the submitted one does not.
    const fee = await api.call('POST', '/api/catalog/v1/document-fee', {
      token: manager,
      body: {
        documentCode: 'VIS',
        code: 'LEVY',
        name: 'Border levy',
        status: true,
        automatic: true,
        amount: 35,
        startTime: new Date(Date.now() - 1000).toISOString(),
      },
    });
    expect(fee.statusCode, fee.body).toBe(201);
    const reread = await ok('GET', `${BASE}/${stored.id}`, applicant);
    expect(reread.data.fees).toMatchObject({ total: '70.00' });
    const fresh = await call('POST', `${BASE}/derive`, applicant, {
      data: visaApplication('VIS', 'VV30'),
    });
    expect((fresh.json() as { values: { '/fees': { total: string } } }).values['/fees'].total).toBe(
      '105.00',
    );
    // Gone again (deletion names the version read), so later applications pay what they did.
    const { id: feeId, version: feeVersion } = fee.json() as { id: string; version: number };
    const removed = await api.call(
      'DELETE',
      `/api/catalog/v1/document-fee/${feeId}?version=${feeVersion}`,
      { token: manager },
    );
    expect(removed.statusCode, removed.body).toBe(204);
  });

  it('shows the officers the visa type the applicant requested, whatever a request sends', async () => {
    const { stored, filled } = await completeApplication('VV30');
    const issuance = async () =>
      ((await ok('GET', `${BASE}/${stored.id}`, verifier)).data.issuance ?? {}) as Record<
        string,
        unknown
      >;
    expect(await issuance()).toMatchObject({ requestedType: 'VIS', requestedSubType: 'VV30' });
    const view = await pay(stored, filled);
    // The officer's grant cannot change what was requested: the application's choice stays.
    const granted = await ok('POST', `${BASE}/${stored.id}/actions/grant`, verifier, {
      version: view.version,
      data: { issuance: { requestedType: 'WRK', requestedSubType: 'WV3Y', remarks: 'ok' } },
    });
    expect(granted.status).toBe('GRANTED');
    expect(await issuance()).toMatchObject({
      requestedType: 'VIS',
      requestedSubType: 'VV30',
      remarks: 'ok',
    });
  });

  it('issues only with issuance details, prints the e-visa and e-mails it at dispatch', async () => {
    const { stored, filled } = await completeApplication('VV30');
    await pay(stored, filled);
    let view = (await call('GET', `${BASE}/${stored.id}`, verifier)).json() as View;
    // The receipt is the holder's, in the holder's language (English here) whatever language
    // the reader asks for; its fees and payer given as recorded.
    const { order } = (
      await call('GET', `/api/payments/${TYPE}/${stored.id}`, applicant)
    ).json() as {
      order: { items: Array<{ name: string }> };
    };
    for (const language of ['en', 'fr'] as const) {
      const receipt = await api.call('GET', `/api/payments/${TYPE}/${stored.id}/receipt`, {
        token: applicant,
        headers: { 'accept-language': language },
      });
      expect(receipt.statusCode, receipt.body).toBe(200);
      assertReadablePdf(await extractPdfText(receipt.rawPayload), {
        language: 'en',
        valueX: RECEIPT_VALUE_X,
        names: [
          ...order.items.map((item) => item.name),
          (view as View & { ownerName?: string }).ownerName ?? '',
        ],
      });
    }
    // The officers can open the applicant's uploads through the document; others cannot.
    const fileId = (filled.documents[0]!.file as { id: string }).id;
    expect((await call('GET', `/api/media/${fileId}`, verifier)).statusCode).toBe(200);
    expect((await call('GET', `/api/media/${fileId}`, other)).statusCode).toBe(404);

    view = await ok('POST', `${BASE}/${stored.id}/actions/forward`, verifier, {
      version: view.version,
    });
    expect(view.status).toBe('FORWARDED');
    const certificateTooSoon = await call('GET', `${BASE}/${stored.id}/certificate`, applicant);
    expect(certificateTooSoon.statusCode).toBe(409);
    const before = await snapshot(stored.id);
    const bare = await call('POST', `${BASE}/${stored.id}/actions/issue`, validator, {
      version: view.version,
      data: { issuance: { remarks: 'no dates' } },
    });
    expect(bare.statusCode).toBe(400);
    expect(problems(bare).map((p) => p.path)).toEqual([
      '/issuance/effectiveDate',
      '/issuance/expiryDate',
      '/issuance/placeOfIssue',
    ]);
    expect(problems(bare)[0]!.message).toBe('This field is required');
    expect(await snapshot(stored.id)).toEqual(before);

    view = await issue(view);
    expect(view.status).toBe('ISSUED');
    const pdf = await call('GET', `${BASE}/${stored.id}/certificate`, applicant);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The e-visa speaks the holder's language (English here), whoever prints it in French.
    const inFrench = await api.call('GET', `${BASE}/${stored.id}/certificate`, {
      token: validator,
      headers: { 'accept-language': 'fr' },
    });
    for (const evisa of [pdf, inFrench]) {
      const text = await extractPdfText(evisa.rawPayload);
      assertReadablePdf(text, {
        language: 'en',
        labels: ['Family name', 'Date of birth', 'Nationality', 'Type and duration', 'Expiry date'],
        valueX: CERTIFICATE_VALUE_X,
      });
      expect(text.title).toBe(`Electronic visa ${String(view.number)}`);
      expect(text.lines.map((line) => line.text)).toEqual(
        expect.arrayContaining([
          'Family name\tTui',
          'Date of birth\t12/04/1990',
          'Nationality\tSamoa',
          'Type and duration\tVisitor visa, single entry, 30 days',
          'Expiry date\t31/01/2099',
        ]),
      );
    }
    expect((await call('GET', `${BASE}/${stored.id}/certificate`, other)).statusCode).toBe(404);

    // The public check finds it by number and passport number.
    const check = await api.call('POST', '/api/evisa/verification', {
      body: { number: view.number, secondFactor: 'PA1234567' },
    });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json()).toMatchObject({ number: view.number, validity: 'inForce', valid: true });
    expect(check.json()).not.toHaveProperty('status');

    view = await ok('POST', `${BASE}/${stored.id}/actions/dispatch`, validator, {
      version: view.version,
    });
    expect(view.status).toBe('DISPATCHED');
    const { mail, inbox } = await visaMail(stored.id, view.number);
    expect(mail?.subject).toBe(`Your electronic visa ${view.number}`);
    expect(mail?.attachments).toHaveLength(1);
    expect(mail!.attachments[0]!.filename).toBe(`${view.number}.pdf`);
    expect(mail!.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-');
    assertReadablePdf(await extractPdfText(mail!.attachments[0]!.content), {
      language: 'en',
      valueX: CERTIFICATE_VALUE_X,
    });
    // The portal's message area shows no attachment: its message says where the PDF is instead.
    expect(inbox.body).not.toMatch(/attached/i);
    expect(inbox.body).toContain('"Download the e-visa (PDF)"');
  });

  it('gives each dependant charged the issue fee an e-visa of their own, downloaded, mailed and checked', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    // The applicant's form cannot give a dependant a number: the issue gives it.
    const child = { ...CHILD, visaNumber: 'VA-2099-999999' };
    const { stored, filled } = await completeApplication('WV1Y', { dependants: [child] }, 'WRK');
    const paid = await pay(stored, filled);
    expect(paid.data.fees!.lines.filter((l) => l.code === 'ISS')).toHaveLength(2);
    let view = await ok('POST', `${BASE}/${stored.id}/actions/forward`, verifier, {
      version: paid.version,
    });
    view = await issue(view, tomorrow);
    const dependants = view.data.dependants as Array<{ visaNumber?: string }>;
    const own = dependants[0]!.visaNumber!;
    const year = new Date().getUTCFullYear();
    expect(own).toMatch(new RegExp(`^VA-${year}-\\d{6}$`));
    expect(own).not.toBe(view.number);

    // The main applicant downloads both: their own and the dependant's, each numbered so.
    const theirs = await call('GET', `${BASE}/${stored.id}/certificate/${own}`, applicant);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.headers['content-disposition']).toContain(`${own}.pdf`);
    const text = await extractPdfText(theirs.rawPayload);
    assertReadablePdf(text, {
      language: 'en',
      labels: ['Family name', 'Given name', 'Date of birth', 'Passport number'],
      valueX: CERTIFICATE_VALUE_X,
    });
    expect(text.title).toBe(`Electronic visa ${own}`);
    expect(text.lines.map((line) => line.text)).toEqual(
      expect.arrayContaining([
        'Given name\tLani',
        'Date of birth\t01/02/2015',
        'Passport number\tPC7654321',
        'Type and duration\tWork visa, 1 year',
      ]),
    );
    expect(text.text).not.toContain('Sione');
    for (const [token, number, status] of [
      [other, own, 404],
      [applicant, 'VA-2099-999999', 404],
      [applicant, String(view.number), 404],
    ] as const)
      expect(
        (await call('GET', `${BASE}/${stored.id}/certificate/${number}`, token)).statusCode,
      ).toBe(status);

    // Each is checked publicly by its own number and its own holder's details: genuine, in force
    // from tomorrow; never with the other person's details.
    const verify = (number: string, secondFactor: string) =>
      api.call('POST', '/api/evisa/verification', {
        body: { number, secondFactor },
        headers: { 'x-forwarded-for': '203.0.113.77' },
      });
    for (const factor of ['PC7654321', '01/02/2015']) {
      const found = await verify(own.toLowerCase(), factor);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json()).toEqual({
        number: own,
        documentType: TYPE,
        validFrom: tomorrow,
        validUntil: '2099-01-31',
        validity: 'notYetInForce',
        valid: false,
      });
    }
    expect((await verify(String(view.number), 'PA1234567')).json()).toMatchObject({
      validity: 'notYetInForce',
    });
    expect((await verify(own, 'PA1234567')).statusCode).toBe(404);
    expect((await verify(String(view.number), 'PC7654321')).statusCode).toBe(404);
    expect((await verify('VA-2099-999999', 'PC7654321')).statusCode).toBe(404);

    // Dispatch mails both e-visas.
    view = await ok('POST', `${BASE}/${stored.id}/actions/dispatch`, validator, {
      version: view.version,
    });
    const { mail, inbox } = await visaMail(stored.id, view.number);
    expect(mail!.attachments.map((a) => a.filename)).toEqual([`${view.number}.pdf`, `${own}.pdf`]);
    expect(mail!.text).toContain(`Lani Tui (${own})`);
    // The message area tells where each is downloaded: the buttons named after their holders.
    expect(inbox.body).toContain(`"Download the e-visa of Sione Tui, ${view.number} (PDF)"`);
    expect(inbox.body).toContain(`Lani Tui (${own})`);
    for (const attachment of mail!.attachments)
      assertReadablePdf(await extractPdfText(attachment.content), {
        language: 'en',
        valueX: CERTIFICATE_VALUE_X,
      });
    expect(
      (await call('GET', `${BASE}/${stored.id}/certificate/${own}`, applicant)).statusCode,
    ).toBe(200);
  });

  it('gives no e-visa of their own to dependants a visa does not charge', async () => {
    const spouse = {
      relationship: 'SPOUSE',
      familyName: 'Tui',
      givenName: 'Moana',
      birthDate: '1991-03-03',
      nationality: 'WS',
      visaNumber: 'VA-2099-999998',
    };
    // The visitor visa's sub-document charges no dependant: one e-visa, the applicant's.
    const { stored, filled } = await completeApplication('VV30', { dependants: [spouse] });
    const paid = await pay(stored, filled);
    let view = await ok('POST', `${BASE}/${stored.id}/actions/forward`, verifier, {
      version: paid.version,
    });
    view = await issue(view);
    expect(view.status).toBe('ISSUED');
    expect((view.data.dependants as Array<Record<string, unknown>>)[0]).not.toHaveProperty(
      'visaNumber',
    );
    const check = await api.call('POST', '/api/evisa/verification', {
      body: { number: 'VA-2099-999998', secondFactor: '03/03/1991' },
      headers: { 'x-forwarded-for': '203.0.113.78' },
    });
    expect(check.statusCode).toBe(404);
  });

  it('finds a dependant e-visa number through its index, not by reading every application', async () => {
    const db = api.server.database.db;
    const rolledBack = new Error('rolled back');
    let plan = '';
    // Five thousand applications more, each with a dependant's e-visa, in a transaction that is
    // rolled back: the planner then has a table worth an index.
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into document (type, status, version, owner, data, created_by, updated_by)
          select ${TYPE}, 'DISPATCHED', 1, 'owner-' || g, jsonb_build_object('dependants',
            jsonb_build_array(jsonb_build_object('visaNumber', 'VA-2000-' || g))), 't', 't'
          from generate_series(1, 5000) g`.execute(trx);
        await sql`analyze document`.execute(trx);
        const lookup = holderLookup(trx, TYPE, '/dependants', '/visaNumber', 'VA-2000-42', [
          '/issuance/effectiveDate',
        ]);
        plan = (await lookup.explain()).map((row) => String(Object.values(row)[0])).join('\n');
        throw rolledBack;
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
      });
    expect(plan).toMatch(/Index Scan (on|using) document_list_visa_application_\w+/);
    expect(plan).toMatch(/Index Cond: \(\(data #> '\{dependants\}'::text\[\]\) @>/);
    expect(plan).not.toMatch(/Seq Scan on document/);
  });

  it('gives a French holder the catalogues’ texts in French: questions, attachments, fees, receipt and e-visa', async () => {
    const base = visaApplication('VIS', 'VV30');
    const { stored, filled } = await completeApplication('VV30', {
      contact: { ...base.contact, preferredLanguage: 'fr' },
    });
    type Copied = { code: string; i18n?: { fr?: Record<string, string> } };
    const questions = stored.data.characterQuestions as unknown as Copied[];
    // Every question and attachment carries its French beside the English the catalogue keeps.
    expect(questions.filter((q) => !q.i18n?.fr?.question)).toEqual([]);
    expect(questions.find((q) => q.code === 'CRIM')?.i18n?.fr?.question).toBe(
      'Avez-vous déjà été condamné pour une infraction pénale dans un pays quelconque ?',
    );
    const attachments = stored.data.documents as unknown as Copied[];
    expect(attachments.find((d) => d.code === 'PASS')?.i18n?.fr?.name).toBe(
      "Copie de la page d'identité du passeport",
    );
    const paid = await pay(stored, filled);
    const lines = (paid.data.fees as unknown as { lines: Array<Copied & { name: string }> }).lines;
    const byCode = Object.fromEntries(lines.map((line) => [line.code, line]));
    expect([byCode.APP, byCode.ISS].map((line) => [line?.name, line?.i18n?.fr?.name])).toEqual([
      ['Application fee', 'Frais de dossier'],
      ['Issue fee', 'Frais de délivrance'],
    ]);
    // The receipt is written in its French holder's language, even for a reader asking for
    // English, and names the fees in it.
    const receipt = await api.call('GET', `/api/payments/${TYPE}/${stored.id}/receipt`, {
      token: applicant,
      headers: { 'accept-language': 'en' },
    });
    const receiptText = await extractPdfText(receipt.rawPayload);
    assertReadablePdf(receiptText, { language: 'fr', valueX: RECEIPT_VALUE_X, names: ['Ana Tui'] });
    const printed = receiptText.lines.map((line) => line.text).join('\n');
    expect(printed).toContain('Frais de dossier');
    expect(printed).toContain('Frais de délivrance');
    expect(printed).not.toContain('Application fee');

    const forwarded = await ok('POST', `${BASE}/${stored.id}/actions/forward`, verifier, {
      version: paid.version,
    });
    const issued = await ok('POST', `${BASE}/${stored.id}/actions/issue`, validator, {
      version: forwarded.version,
      data: {
        issuance: {
          effectiveDate: new Date().toISOString().slice(0, 10),
          expiryDate: '2099-01-31',
          placeOfIssue: 'Port Town',
        },
      },
    });
    expect(issued.status).toBe('ISSUED');
    // Printed by an officer of the English portal, the e-visa is the holder's: in French.
    const evisa = await call('GET', `${BASE}/${stored.id}/certificate`, validator);
    const text = await extractPdfText(evisa.rawPayload);
    assertReadablePdf(text, { language: 'fr', valueX: CERTIFICATE_VALUE_X, names: ['Port Town'] });
    expect(text.lines.map((line) => line.text)).toEqual(
      expect.arrayContaining([
        'Nationalité\tSamoa',
        'Type et durée\tVisa de visiteur, entrée unique, 30 jours',
      ]),
    );
  });
});
