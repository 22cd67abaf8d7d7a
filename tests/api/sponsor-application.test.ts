import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signNotification } from '../../src/server/payments/sandbox/gateway';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { insertAccount, messagesAbout } from '../support/inbox';
import { multipartFile } from '../support/multipart';
import { numberAtLookup } from '../../src/server/documents/store/numbered-in-data';
import { answerAll, sponsorApplication } from '../support/sponsor-data';
import { visaApplication } from '../support/visa-data';

/**
 * The sponsor application on the seeded reference data: the sponsor type's Document entry
 * gives the questions, attachments and fee (frozen at submission), payment goes through the
 * sandbox gateway once whatever it replays, and no card data is kept; the verifying officer
 * queries (the owner is told, must change what was asked) and grants for a Sub-Document
 * period, which dates the sponsorship and gives its gap-free number; a visa application's
 * sponsor reference must name a granted, unexpired one. An officer can create an application
 * for a sponsor's account. Every refusal leaves the document, its versions and its history as
 * they were.
 */
const TYPE = 'sponsor-application';
const BASE = `/api/evisa/${TYPE}`;
const VISA = '/api/evisa/visa-application';
const CARD = '4111111111111111';
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(300, 32),
  Buffer.from('%%EOF\n'),
]);
/** Small, so the oversized upload stays small too. */
const MEDIA_MAX_BYTES = 64 * 1024;

type Item = Record<string, unknown>;
type View = {
  id: string;
  version: number;
  status: string;
  owner: string;
  number: string | null;
  data: Item & {
    header?: {
      reference?: string;
      effectiveDate?: string;
      expiryDate?: string;
      orderReference?: string;
    };
    characterQuestions?: Array<{ code: string; answer?: boolean }>;
    documents?: Array<{ code: string; mandatory: boolean; file?: unknown }>;
    fees?: { total: string; lines: Array<{ code: string; amount: string }> };
    sponsorship?: Item;
  };
};
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The last day of `years` years from `from` (YYYY-MM-DD), as a grant's expiry date. */
function lastDayAfterYears(from: string, years: number): string {
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  const daysInMonth = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  const date = new Date(Date.UTC(y + years, m - 1, Math.min(d, daysInMonth)));
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

describe.each(databaseKinds())('sponsor applications on %s', (kind) => {
  let api: ApiHarness;
  let sponsor: string;
  let verifier: string;
  let counter: string;
  let manager: string;
  let applicant: string;

  beforeAll(async () => {
    api = await startApiServer(kind, { mediaMaxBytes: MEDIA_MAX_BYTES });
    sponsor = await api.tokenFor(
      [
        'view-profile',
        ...['submit', 'read', 'update', 'pay', 'cancel', 'undo', 'delete'].map(
          (r) => `${TYPE}-${r}`,
        ),
      ],
      { sub: 'sponsor-lagoon', name: 'Lagoon Trading', email: 'sponsorships@example.org' },
    );
    verifier = await api.tokenFor(
      ['search', 'read', 'query', 'grant', 'reject', 'submitted', 'granted'].map(
        (r) => `${TYPE}-${r}`,
      ),
      { sub: 'officer-verifier' },
    );
    counter = await api.tokenFor([`${TYPE}-create`, `${TYPE}-search`], { sub: 'officer-counter' });
    manager = await api.tokenFor(['asypx-catalog-manage']);
    applicant = await api.tokenFor(
      ['visa-application-submit', 'visa-application-read', 'visa-application-update'],
      { sub: 'applicant-sponsored' },
    );
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (method: Method, url: string, token: string, body?: unknown) =>
    api.call(method, url, { token, body });
  const ok = async (method: Method, url: string, token: string, body?: unknown) => {
    const response = await call(method, url, token, body);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as View;
  };
  const act = (doc: { id: string; version: number }, action: string, token: string, body = {}) =>
    call('POST', `${BASE}/${doc.id}/actions/${action}`, token, { version: doc.version, ...body });
  const read = (id: string) => ok('GET', `${BASE}/${id}`, verifier);
  const upload = (token: string, content = PDF, type = 'application/pdf') => {
    const { body: payload, contentType } = multipartFile('scan.pdf', type, content);
    return api.app.inject({
      method: 'POST',
      url: '/api/media',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
  };
  /** The stored document, its versions and its history, to show a refusal changed nothing. */
  const snapshot = async (id: string) => ({
    document: await read(id),
    versions: (await call('GET', `${BASE}/${id}/versions`, verifier)).json() as unknown[],
    history: (await call('GET', `${BASE}/${id}/history`, verifier)).json() as unknown[],
  });
  const history = async (id: string) =>
    (await call('GET', `${BASE}/${id}/history`, verifier)).json() as Array<{ action: string }>;
  const problems = (response: { json(): unknown }) =>
    (
      response.json() as {
        error: { fields: Array<{ path: string; rule: string; message: string }> };
      }
    ).error.fields;

  /**
   * A stored application of the type with every question the server listed answered and
   * every mandatory attachment uploaded by the owner (`token`).
   */
  async function completeApplication(type: 'SPORG' | 'SPPER' = 'SPORG', token = sponsor) {
    const stored = await ok('POST', BASE, token, { data: sponsorApplication(type) });
    const file = (await upload(token)).json() as Item;
    const { fees: _fees, ...given } = stored.data;
    const filled = answerAll({ ...sponsorApplication(type), ...given }, file) as Item & {
      characterQuestions: Array<Item>;
      documents: Array<Item>;
    };
    return { stored, filled };
  }
  async function submitted(type: 'SPORG' | 'SPPER' = 'SPORG', token = sponsor): Promise<View> {
    const { stored, filled } = await completeApplication(type, token);
    const response = await act(stored, 'submit', token, { data: filled });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as View;
  }

  /** The gateway's page for the document's open order: its path and session. */
  async function purchase(id: string, token = sponsor) {
    const response = await call('POST', `/api/payments/${TYPE}/${id}/purchase`, token);
    expect(response.statusCode, response.body).toBe(200);
    const url = new URL((response.json() as { redirectUrl: string }).redirectUrl);
    return { path: url.pathname, session: url.pathname.split('/').pop()! };
  }
  const payOnGateway = (path: string, card = CARD) =>
    api.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        cardNumber: card,
        cardName: 'Lagoon Trading',
        expiry: '12/39',
        cvc: '123',
      }).toString(),
    });
  async function initiated(doc: View, token = sponsor): Promise<View> {
    const response = await act(doc, 'initiate', token, { data: { termsAccepted: true } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as View;
  }
  /** Submitted, initiated and paid the way a sponsor does: PAID FOR VERIFICATION. */
  async function paid(type: 'SPORG' | 'SPPER' = 'SPORG'): Promise<View> {
    const doc = await initiated(await submitted(type));
    const { path } = await purchase(doc.id);
    expect((await payOnGateway(path)).statusCode).toBe(303);
    const view = await read(doc.id);
    expect(view.status).toBe('PAID FOR VERIFICATION');
    return view;
  }
  const grant = (doc: View, period = 'SPO3Y') =>
    act(doc, 'grant', verifier, { data: { verification: { period } } });
  async function granted(type: 'SPORG' | 'SPPER' = 'SPORG'): Promise<View> {
    const response = await grant(await paid(type), type === 'SPORG' ? 'SPO3Y' : 'SPP3Y');
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as View;
  }

  it('freezes the fee of the sponsor type at submission, whatever the catalogue says later', async () => {
    const doc = await submitted('SPORG');
    expect(doc.status).toBe('SUBMITTED');
    expect(doc.number).toMatch(/^SPA-\d{4}-\d{6}$/);
    expect(doc.data.fees).toMatchObject({
      total: '250.00',
      currency: 'NZD',
      lines: [{ code: 'APP', amount: '250.00' }],
    });
    // The organisation's application fee goes up: the entry itself is edited.
    const fees = await call('PATCH', '/api/catalog/v1/document-fee', manager, {
      filter: [
        { field: 'documentCode', criterion: 'equals', value: 'SPORG' },
        { field: 'code', criterion: 'equals', value: 'APP' },
      ],
    });
    expect(fees.statusCode, fees.body).toBe(200);
    const entry = (fees.json() as { items: Array<{ id: string; version: number; data: Item }> })
      .items[0]!;
    const edit = (version: number, amount: number) =>
      call('PUT', `/api/catalog/v1/document-fee/${entry.id}`, manager, {
        version,
        data: { ...entry.data, amount },
      });
    const raised = await edit(entry.version, 400);
    expect(raised.statusCode, raised.body).toBe(200);
    try {
      const derived = await call('POST', `${BASE}/derive`, sponsor, {
        data: sponsorApplication('SPORG'),
      });
      expect(
        (derived.json() as { values: { '/fees': { total: string } } }).values['/fees'].total,
      ).toBe('400.00');
      expect((await read(doc.id)).data.fees?.total).toBe('250.00');
      // What is initiated and paid is the frozen fee.
      const started = await initiated(doc);
      expect(started.data.fees?.total).toBe('250.00');
      const state = await call('GET', `/api/payments/${TYPE}/${doc.id}`, sponsor);
      expect((state.json() as { order: { total: string } }).order.total).toBe('250.00');
    } finally {
      const restored = await edit((raised.json() as { version: number }).version, 250);
      expect(restored.statusCode, restored.body).toBe(200);
    }
  });

  it('refuses an unanswered question and a missing mandatory attachment, changing nothing', async () => {
    const { stored, filled } = await completeApplication('SPORG');
    const before = await snapshot(stored.id);
    /** Submitted with `change`: refused with `expected`, every message in words. */
    const refused = async (change: Item, expected: Record<string, string>) => {
      const response = await act(stored, 'submit', sponsor, { data: { ...filled, ...change } });
      expect(response.statusCode).toBe(400);
      expect(problems(response)).toContainEqual(expect.objectContaining(expected));
      // The `if` Ajv adds beside the error of its `then` says nothing more and is not sent
      // (it came back as "validation.if"); no message is a raw key.
      expect(problems(response).map((p) => p.rule)).not.toContain('if');
      for (const problem of problems(response))
        expect(problem.message, problem.rule).not.toMatch(/^validation\./);
    };
    const firstQuestion = (answer: Item) =>
      filled.characterQuestions.map((q, i) => (i === 0 ? { ...q, ...answer } : q));
    await refused(
      { characterQuestions: firstQuestion({ answer: undefined }) },
      {
        path: '/characterQuestions',
        rule: 'characterQuestions',
        message: 'Please answer all Character Questions',
      },
    );
    await refused(
      { documents: filled.documents.map((d) => (d.mandatory ? { ...d, file: undefined } : d)) },
      {
        path: '/documents',
        rule: 'mandatoryAttachments',
        message: 'Please upload every mandatory document',
      },
    );
    // A Yes with no explanation: the explanation is asked for.
    await refused(
      { characterQuestions: firstQuestion({ answer: true }) },
      {
        path: '/characterQuestions/0/explanation',
        rule: 'required',
        message: 'This field is required',
      },
    );
    expect(await snapshot(stored.id)).toEqual(before);
  });

  it('refuses an oversized upload and a wrongly typed one, changing nothing', async () => {
    const { stored } = await completeApplication('SPPER');
    const before = await snapshot(stored.id);
    const tooLarge = await upload(sponsor, Buffer.concat([PDF, Buffer.alloc(MEDIA_MAX_BYTES, 32)]));
    expect(tooLarge.statusCode).toBe(413);
    const wrongType = await upload(sponsor, Buffer.from('MZ not a pdf at all'));
    expect(wrongType.statusCode).toBe(400);
    expect(problems(wrongType)[0]).toMatchObject({ path: '/file', rule: 'fileType' });
    expect(await snapshot(stored.id)).toEqual(before);
  });

  it('grants only for a period with a length, and refuses a stale version, changing nothing', async () => {
    // A period of the organisation's document that says for how long nothing.
    const open = await call('POST', '/api/catalog/v1/sub-document', manager, {
      documentCode: 'SPORG',
      code: 'SPONL',
      name: 'Sponsorship with no length',
      feeAmount: 0,
      otherAmount: 0,
      startTime: '2020-01-01T00:00:00Z',
    });
    expect(open.statusCode, open.body).toBe(201);
    const doc = await paid('SPORG');
    const before = await snapshot(doc.id);
    const bare = await act(doc, 'grant', verifier, { data: { verification: {} } });
    expect(bare.statusCode).toBe(400);
    expect(problems(bare)).toContainEqual(
      expect.objectContaining({ path: '/verification/period', rule: 'required' }),
    );
    const endless = await grant(doc, 'SPONL');
    expect(endless.statusCode).toBe(400);
    expect(problems(endless)).toContainEqual(
      expect.objectContaining({ path: '/verification/period', rule: 'validityPeriod' }),
    );
    const stale = await act({ id: doc.id, version: doc.version - 1 }, 'grant', verifier, {
      data: { verification: { period: 'SPO3Y' } },
    });
    expect(stale.statusCode).toBe(409);
    expect(await snapshot(doc.id)).toEqual(before);
    // The same grant on the version read passes.
    const done = await grant(doc);
    expect(done.statusCode, done.body).toBe(200);
    expect((done.json() as View).status).toBe('GRANTED');
  });

  it('queries: the owner is told, must change what was asked, and the reply goes back to verification', async () => {
    const doc = await paid('SPPER');
    const noNotes = await act(doc, 'query', verifier, {
      data: { verification: { changesRequired: true } },
    });
    expect(noNotes.statusCode).toBe(400);
    const queried = await act(doc, 'query', verifier, {
      notes: 'Please give a mobile number we can reach you on',
      data: { verification: { changesRequired: true } },
    });
    expect(queried.statusCode, queried.body).toBe(200);
    const query = queried.json() as View;
    expect(query.status).toBe('QUERIED');
    const inbox = await messagesAbout(api.server.database.db, doc.id);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ owner: 'sponsor-lagoon' });
    expect(inbox[0]!.body).toContain('Please give a mobile number we can reach you on');
    // The sponsor's task list shows the query to answer.
    const mine = await call('GET', `${BASE}/${doc.id}`, sponsor);
    expect((mine.json() as { allowedActions: string[] }).allowedActions).toContain('submit-reply');

    const { header: _h, fees: _f, verification: _v, ...owned } = query.data;
    const before = await snapshot(doc.id);
    const unchanged = await act(query, 'submit-reply', sponsor, { data: owned });
    expect(unchanged.statusCode).toBe(400);
    expect(problems(unchanged)).toContainEqual(expect.objectContaining({ rule: 'noChanges' }));
    expect(await snapshot(doc.id)).toEqual(before);
    const contact = { ...(owned.contact as Item), mobile: '+685 720 0142' };
    const replied = await act(query, 'submit-reply', sponsor, { data: { ...owned, contact } });
    expect(replied.statusCode, replied.body).toBe(200);
    const reply = replied.json() as View;
    expect(reply.status).toBe('REPLIED FOR VERIFICATION');
    expect((reply.data.contact as Item).mobile).toBe('+685 720 0142');
    // Verification goes on from the reply: granted for the person's own period.
    const done = await grant(reply, 'SPP3Y');
    expect(done.statusCode, done.body).toBe(200);
    expect((done.json() as View).data.header?.reference).toMatch(/^SPN-\d{4}-\d{6}$/);
  });

  it('queues the applications waiting for verification, paid or replied, for the verifying officers', async () => {
    const waiting = await paid('SPORG');
    const unpaid = await submitted('SPPER');
    const queried = (
      await act(await paid('SPPER'), 'query', verifier, {
        notes: 'Which mobile number?',
        data: { verification: { changesRequired: false } },
      })
    ).json() as View;
    const { header: _h, fees: _f, verification: _v, ...owned } = queried.data;
    const replied = await act(queried, 'submit-reply', sponsor, { data: owned });
    expect(replied.statusCode, replied.body).toBe(200);
    const done = await granted('SPORG');
    const queue = async (token: string) => {
      const response = await call('PATCH', BASE, token, {
        list: 'verification',
        options: { itemsPerPage: -1 },
      });
      return {
        status: response.statusCode,
        ids:
          response.statusCode === 200
            ? (response.json() as { items: Array<{ id: string }> }).items.map((i) => i.id)
            : [],
      };
    };
    const { status, ids } = await queue(verifier);
    expect(status).toBe(200);
    expect(ids).toEqual(expect.arrayContaining([waiting.id, queried.id]));
    expect(ids).not.toContain(unpaid.id);
    expect(ids).not.toContain(done.id);
    // A queue of the officers who decide, not of the counter or the sponsor.
    expect((await queue(counter)).status).toBe(403);
    expect((await queue(sponsor)).status).toBe(403);
    // It is a queue on My Tasks too: nobody is assigned a sponsor application.
    const onDashboard = await api.tokenFor(
      ['view-profile', ...['read', 'query', 'grant', 'reject'].map((r) => `${TYPE}-${r}`)],
      { sub: 'officer-verifier' },
    );
    const tasks = await call('PATCH', '/api/evisa/dashboard/tasks', onDashboard, {
      options: { itemsPerPage: -1 },
    });
    expect(tasks.statusCode, tasks.body).toBe(200);
    const rows = (tasks.json() as { items: Array<{ id: string; reason: string; list?: string }> })
      .items;
    expect(rows.find((row) => row.id === waiting.id)).toMatchObject({
      reason: 'queue',
      list: 'verification',
    });
    expect(rows.some((row) => row.id === unpaid.id)).toBe(false);
  });

  it('tells an organisation of its grant by its name, in its language, with the sponsorship number', async () => {
    // The organisation's account (it owns itself): its name is the organisation's, its
    // preferences say French; the sponsor signs in with it.
    const id = await insertAccount(api.server.database.db, {
      name: 'Lagi Enterprises Ltd',
      email: 'hr@lagi-enterprises.example',
      data: {
        identity: { loginIdentifier: 'lagi.org', firstName: 'Lagi', lastName: 'Enterprises' },
        organisation: { userType: 'ORGANISATION', institution: 'Lagi Enterprises Ltd' },
        preferences: { language: 'fr' },
      },
    });
    const organisation = await api.tokenFor(
      ['submit', 'read', 'update', 'pay'].map((r) => `${TYPE}-${r}`),
      { sub: id, name: 'Lagi Enterprises Ltd', email: 'hr@lagi-enterprises.example' },
    );
    const doc = await initiated(await submitted('SPORG', organisation), organisation);
    const { path } = await purchase(doc.id, organisation);
    expect((await payOnGateway(path)).statusCode).toBe(303);
    const done = await grant(await read(doc.id));
    expect(done.statusCode, done.body).toBe(200);
    const reference = (done.json() as View).data.header!.reference!;
    const [notice] = (await messagesAbout(api.server.database.db, doc.id)).slice(-1);
    expect(notice!.subject).toBe(`Demande de parrainage ${doc.number} : Accordé`);
    expect(notice!.body).toContain('Bonjour Lagi Enterprises Ltd,');
    expect(notice!.body).toContain(`Numéro de parrainage : ${reference}`);
  });

  it('numbers 20 sponsorships granted at once without a gap or a duplicate, each for 3 years', async () => {
    const docs: View[] = [];
    for (let i = 0; i < 20; i++) docs.push(await paid('SPORG'));
    const answers = await Promise.all(docs.map((doc) => grant(doc)));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const views = answers.map((a) => a.json() as View);
    const today = new Date().toISOString().slice(0, 10);
    const year = today.slice(0, 4);
    const serials = views
      .map((v) => {
        const reference = v.data.header!.reference!;
        expect(reference).toMatch(new RegExp(`^SPN-${year}-\\d{6}$`));
        return Number(reference.slice(-6));
      })
      .sort((a, b) => a - b);
    const first = serials[0]!;
    expect(serials).toEqual(Array.from({ length: 20 }, (_, i) => first + i));
    for (const view of views) {
      expect(view.status).toBe('GRANTED');
      expect(view.data.header).toMatchObject({
        effectiveDate: today,
        expiryDate: lastDayAfterYears(today, 3),
      });
    }
  });

  it('is checked publicly by its sponsorship number and a detail of the sponsor, through an index', async () => {
    const verify = (number: string, secondFactor: string) =>
      api.call('POST', '/api/evisa/verification', {
        body: { number, secondFactor },
        headers: { 'x-forwarded-for': '203.0.113.90' },
      });
    const paidOnly = await paid('SPORG');
    const organisation = await granted('SPORG');
    const person = await granted('SPPER');
    const today = new Date().toISOString().slice(0, 10);
    for (const [sponsorship, factor] of [
      [organisation, 'SPONSORSHIPS@example.org'],
      [person, 'ps7654321'],
      [person, '03/02/1980'],
    ] as const) {
      const reference = sponsorship.data.header!.reference!;
      const found = await verify(reference, factor);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json()).toEqual({
        number: reference,
        documentType: TYPE,
        validFrom: today,
        validUntil: sponsorship.data.header!.expiryDate,
        validity: 'inForce',
        valid: true,
      });
    }
    // Only the sponsorship number is public: not the application's own, not one not granted.
    for (const [number, factor] of [
      [organisation.number!, 'sponsorships@example.org'],
      [paidOnly.number!, 'sponsorships@example.org'],
      [organisation.data.header!.reference!, 'PS7654321'],
    ] as const)
      expect((await verify(number, factor)).statusCode).toBe(404);

    const rolledBack = new Error('rolled back');
    let plan = '';
    await api.server.database.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into document (type, status, version, owner, data, created_by, updated_by)
          select ${TYPE}, 'GRANTED', 1, 'owner-' || g, jsonb_build_object('header',
            jsonb_build_object('reference', 'SPN-2000-' || g)), 't', 't'
          from generate_series(1, 5000) g`.execute(trx);
        await sql`analyze document`.execute(trx);
        const lookup = numberAtLookup(trx, TYPE, '/header/reference', 'SPN-2000-42', []);
        plan = (await lookup.explain()).map((row) => String(Object.values(row)[0])).join('\n');
        throw rolledBack;
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
      });
    expect(plan).toMatch(/Index Scan (on|using) document_list_sponsor_application_\w+/);
    expect(plan).toMatch(/Index Cond: \(\(data #>> '\{header,reference\}'::text\[\]\) =/);
  });

  it('lets a visa name only a granted, unexpired sponsorship, and fills the sponsor from it', async () => {
    const sponsorship = await granted('SPORG');
    const reference = sponsorship.data.header!.reference!;
    const derive = (sponsorReference: string) =>
      call('POST', `${VISA}/derive`, applicant, {
        data: {
          ...visaApplication('VIS', 'VV30'),
          sponsorship: { sponsored: true, sponsorReference },
        },
      });
    type Derived = { values: Record<string, unknown>; problems: Array<{ path: string }> };
    const valid = await derive(reference);
    expect(valid.statusCode, valid.body).toBe(200);
    expect((valid.json() as Derived).values).toMatchObject({
      '/sponsorship/sponsorName': 'Lagoon Trading Company Ltd',
      '/sponsorship/sponsorType': 'SPORG',
    });
    expect((valid.json() as Derived).problems).toEqual([]);
    const unknown = (await derive('SPN-1999-999999')).json() as Derived;
    expect(unknown.values['/sponsorship/sponsorName']).toBeUndefined();
    expect(unknown.problems).toContainEqual(
      expect.objectContaining({ path: '/sponsorship/sponsorReference' }),
    );

    // A visa application names it, and is refused once the sponsorship has expired.
    const visa = await ok('POST', VISA, applicant, { data: visaApplication('VIS', 'VV30') });
    const file = (await upload(applicant)).json() as Item;
    const visaData = {
      ...visaApplication('VIS', 'VV30'),
      characterQuestions: (visa.data.characterQuestions ?? []).map((q) => ({
        ...q,
        answer: false,
      })),
      documents: (visa.data.documents ?? []).map((d) => ({ ...d, file })),
      sponsorship: { sponsored: true, sponsorReference: reference },
    };
    const named = await call('PUT', `${VISA}/${visa.id}`, applicant, {
      version: visa.version,
      data: visaData,
    });
    expect(named.statusCode, named.body).toBe(200);
    const stored = named.json() as View;
    expect(stored.data.sponsorship).toMatchObject({
      sponsorName: 'Lagoon Trading Company Ltd',
      sponsorType: 'SPORG',
    });
    await api.tables
      .updateTable('document')
      .set({
        data: sql`jsonb_set(data, '{header,expiryDate}', to_jsonb(${'2025-01-31'}::text))`,
      })
      .where('id', '=', sponsorship.id)
      .execute();
    expect((await read(sponsorship.id)).data.header?.expiryDate).toBe('2025-01-31');
    const expired = await call('POST', `${VISA}/${visa.id}/actions/submit`, applicant, {
      version: stored.version,
      data: visaData,
    });
    expect(expired.statusCode).toBe(400);
    expect(problems(expired)).toContainEqual(
      expect.objectContaining({
        path: '/sponsorship/sponsorReference',
        rule: 'sponsorReference',
        // translations/en.json validation.sponsorReference, the specification's wording.
        message: 'Invalid Sponsor reference',
      }),
    );
    const gone = (await derive(reference)).json() as Derived;
    expect(gone.values['/sponsorship/sponsorName']).toBeUndefined();
    expect(gone.problems).toContainEqual(
      expect.objectContaining({ path: '/sponsorship/sponsorReference' }),
    );
  });

  it('cancels, undoes back to the status before, and deletes out of every list', async () => {
    // Cancelled when stored, back to STORED.
    const { stored } = await completeApplication('SPPER');
    const cancelled = await act(stored, 'cancel', sponsor);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((cancelled.json() as View).status).toBe('CANCELLED');
    const undone = await act(cancelled.json() as View, 'undo', sponsor);
    expect(undone.statusCode, undone.body).toBe(200);
    expect((undone.json() as View).status).toBe('STORED');
    // Cancelled when submitted, back to SUBMITTED, the fee still due.
    const due = await submitted('SPORG');
    const off = await act(due, 'cancel', sponsor);
    expect((off.json() as View).status).toBe('CANCELLED');
    const back = await act(off.json() as View, 'undo', sponsor);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json() as View).toMatchObject({ status: 'SUBMITTED', number: due.number });
    expect((back.json() as View).data.fees?.total).toBe('250.00');
    // Deleted: gone from the owner's library and the officers' search.
    const deleted = await act(undone.json() as View, 'delete', sponsor);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((deleted.json() as View).status).toBe('DELETED');
    const library = await call('PATCH', '/api/evisa/dashboard/library', sponsor, {});
    const ids = (library.json() as { items: Array<{ id: string }> }).items.map((i) => i.id);
    expect(ids).toContain(due.id);
    expect(ids).not.toContain(stored.id);
    const search = await call('PATCH', BASE, verifier, {});
    expect(search.statusCode, search.body).toBe(200);
    expect(
      (search.json() as { items: Array<{ id: string }> }).items.map((i) => i.id),
    ).not.toContain(stored.id);
  });

  it('creates an application for a sponsor account, who finds it in their library and submits it', async () => {
    const admin = await api.tokenFor(['connectid-account-create']);
    const account = await call('POST', '/api/connectid/account', admin, {
      action: 'create',
      data: {
        identity: { loginIdentifier: 'lagoon.sponsor', firstName: 'Mele', lastName: 'Faleolo' },
        contact: { emailAddress: 'lagoon.sponsor@example.org', primaryMobileNo: '+685 7210001' },
        organisation: { userType: 'INDIVIDUAL' },
        access: { userGroup: 'PUBLIC' },
      },
    });
    expect(account.statusCode, account.body).toBe(201);
    const accountId = (account.json() as { id: string }).id;
    const count = async () =>
      Number(
        (
          await api.tables
            .selectFrom('document')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('type', '=', TYPE)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const unknown = await call('POST', BASE, counter, {
      action: 'create',
      owner: 'nobody.here',
      data: sponsorApplication('SPORG'),
    });
    expect(unknown.statusCode).toBe(400);
    expect(problems(unknown)).toContainEqual(
      expect.objectContaining({ path: '/owner', rule: 'unknownAccount' }),
    );
    expect(await count()).toBe(before);

    const created = await call('POST', BASE, counter, {
      action: 'create',
      // The sign-in name as typed at the counter: case does not matter.
      owner: 'Lagoon.Sponsor',
      data: sponsorApplication('SPORG'),
    });
    expect(created.statusCode, created.body).toBe(201);
    const doc = created.json() as View;
    expect(doc).toMatchObject({ status: 'STORED', owner: accountId });
    expect(await count()).toBe(before + 1);

    const holder = await api.issuer.token({
      sub: accountId,
      name: 'Mele Faleolo',
      groups: ['view-profile', `${TYPE}-submit`, `${TYPE}-read`],
    });
    const library = await call('PATCH', '/api/evisa/dashboard/library', holder, {});
    expect(library.statusCode, library.body).toBe(200);
    expect((library.json() as { items: Array<{ id: string }> }).items.map((i) => i.id)).toContain(
      doc.id,
    );
    // Not the officer's: they hold no owner action on it.
    expect(
      (await act(doc, 'submit', counter, { data: sponsorApplication('SPORG') })).statusCode,
    ).toBe(403);
    const file = (await upload(holder)).json() as Item;
    const { fees: _fees, ...given } = doc.data;
    const filled = answerAll({ ...sponsorApplication('SPORG'), ...given }, file);
    const done = await act(doc, 'submit', holder, { data: filled });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json() as View).toMatchObject({ status: 'SUBMITTED', owner: accountId });
  });

  it('pays once when the gateway reports the approval 100 times at once', async () => {
    const doc = await initiated(await submitted('SPORG'));
    const { session } = await purchase(doc.id);
    const raw = JSON.stringify({
      sessionId: session,
      orderReference: doc.data.header!.orderReference,
      outcome: 'APPROVED',
      amountCents: 25000,
      currency: 'NZD',
      transactionId: 'sbx_txn_sponsor_once',
      maskedCard: '•••• 1111',
    });
    const notify = () =>
      api.app.inject({
        method: 'POST',
        url: '/api/payments/notify/sandbox',
        headers: {
          'content-type': 'application/json',
          'x-sandbox-signature': signNotification(api.config.payments.sandboxSecret, raw),
        },
        payload: raw,
      });
    const answers = await Promise.all(Array.from({ length: 100 }, notify));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(100).fill(200));
    const after = await read(doc.id);
    expect(after.status).toBe('PAID FOR VERIFICATION');
    expect(after.data.fees).toMatchObject({ amountPaid: '250.00' });
    expect((await history(doc.id)).filter((h) => h.action === 'pay')).toHaveLength(1);
    const orders = await api.server.database.db
      .selectFrom('payment_order')
      .select(['status'])
      .where('document_id', '=', doc.id)
      .execute();
    expect(orders.filter((o) => o.status === 'APPROVED')).toHaveLength(1);
  });

  it('keeps no card number in any table of the database', async () => {
    // The server under test logs nothing (the harness builds it with logger: false), so the
    // database is the one place the card could have been written.
    const doc = await paid('SPORG');
    expect(doc.data.fees).toMatchObject({ amountPaid: '250.00' });
    const db = api.server.database.db;
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
    expect(tables.rows.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['document', 'payment_order', 'sandbox_gateway_session']),
    );
    const spaced = CARD.replace(/(\d{4})(?=\d)/g, '$1 ');
    for (const { table_name } of tables.rows) {
      const rows = await sql<{
        row: string;
      }>`select t::text as row from ${sql.table(table_name)} t`.execute(db);
      for (const { row } of rows.rows) {
        expect(row, table_name).not.toContain(CARD);
        expect(row, table_name).not.toContain(spaced);
      }
    }
  });
});
