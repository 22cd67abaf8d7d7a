import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { insertAccount, messagesAbout } from '../support/inbox';
import { multipartFile } from '../support/multipart';
import { answerAll, sponsorApplication } from '../support/sponsor-data';
import { visaApplication } from '../support/visa-data';

/**
 * A granted sponsorship's life after its grant (docs/sponsor.md, "Renewal, suspension and
 * revocation"): the sponsor renews it before it expires (a new application prefilled from it;
 * granted, the sponsorship keeps its number, its expiry and its timer move on); an officer
 * suspends it (visa applications naming it are refused until it is reinstated) or revokes it
 * (for good: the visas already granted naming it are flagged for review); its screen lists the
 * visa applications naming it. Each change is a notice to the sponsor, in their language, with
 * the officer's reason.
 */
const TYPE = 'sponsor-application';
const BASE = `/api/evisa/${TYPE}`;
const VISA = '/api/evisa/visa-application';
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(300, 32),
  Buffer.from('%%EOF\n'),
]);

type Item = Record<string, unknown>;
type View = {
  id: string;
  version: number;
  status: string;
  owner: string;
  number: string | null;
  timers?: Array<{ name: string; dueAt: string }>;
  data: Item & {
    header?: { reference?: string; effectiveDate?: string; expiryDate?: string; renews?: string };
    characterQuestions?: Item[];
    documents?: Item[];
    organisation?: Item;
  };
};
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The last day of a period of `years` years from `from` (YYYY-MM-DD). */
function lastDayAfterYears(from: string, years: number): string {
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  const daysInMonth = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  const date = new Date(Date.UTC(y + years, m - 1, Math.min(d, daysInMonth)));
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}
const dayAfter = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe.each(databaseKinds())('a sponsorship renewed, suspended and revoked on %s', (kind) => {
  let api: ApiHarness;
  let sponsor: string;
  let sponsorId: string;
  let stranger: string;
  let verifier: string;
  let applicant: string;
  let visaOfficer: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    // The sponsor's account says French: every notice to them is in French.
    sponsorId = await insertAccount(api.server.database.db, {
      name: 'Vaipe Holdings Ltd',
      email: 'office@vaipe.example',
      data: {
        identity: { loginIdentifier: 'vaipe.org', firstName: 'Vaipe', lastName: 'Holdings' },
        organisation: { userType: 'ORGANISATION', institution: 'Vaipe Holdings Ltd' },
        preferences: { language: 'fr' },
      },
    });
    const sponsorRoles = ['submit', 'read', 'update', 'pay'].map((r) => `${TYPE}-${r}`);
    sponsor = await api.tokenFor(sponsorRoles, {
      sub: sponsorId,
      name: 'Vaipe Holdings Ltd',
      email: 'office@vaipe.example',
    });
    stranger = await api.tokenFor(sponsorRoles, { sub: 'sponsor-other' });
    verifier = await api.tokenFor(
      ['search', 'read', 'query', 'grant', 'reject'].map((r) => `${TYPE}-${r}`),
      { sub: 'officer-standing' },
    );
    applicant = await api.tokenFor(
      ['visa-application-submit', 'visa-application-read', 'visa-application-update'],
      { sub: 'applicant-named' },
    );
    visaOfficer = await api.tokenFor(['visa-application-search', 'visa-application-read'], {
      sub: 'officer-visas',
    });
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
  const upload = async (token: string) => {
    const { body: payload, contentType } = multipartFile('scan.pdf', 'application/pdf', PDF);
    const response = await api.app.inject({
      method: 'POST',
      url: '/api/media',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
    return response.json() as Item;
  };

  /** A stored application (new, or a renewal) submitted, paid on the gateway and granted. */
  async function grantedFrom(stored: View, period = 'SPO3Y'): Promise<View> {
    const { fees: _fees, ...given } = stored.data;
    const filled = answerAll({ ...sponsorApplication('SPORG'), ...given }, await upload(sponsor));
    const submitted = await act(stored, 'submit', sponsor, { data: filled });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const initiated = await act(submitted.json() as View, 'initiate', sponsor, {
      data: { termsAccepted: true },
    });
    expect(initiated.statusCode, initiated.body).toBe(200);
    const purchase = await call('POST', `/api/payments/${TYPE}/${stored.id}/purchase`, sponsor);
    const path = new URL((purchase.json() as { redirectUrl: string }).redirectUrl).pathname;
    const paid = await api.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        cardNumber: '4111111111111111',
        cardName: 'Vaipe Holdings',
        expiry: '12/39',
        cvc: '123',
      }).toString(),
    });
    expect(paid.statusCode).toBe(303);
    const granted = await act(await read(stored.id), 'grant', verifier, {
      data: { verification: { period } },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    return granted.json() as View;
  }
  const newSponsorship = async () =>
    grantedFrom(await ok('POST', BASE, sponsor, { data: sponsorApplication('SPORG') }));

  /** A visa application of the applicant naming the sponsorship, stored and ready to submit. */
  async function visaNaming(reference: string) {
    const visa = await ok('POST', VISA, applicant, { data: visaApplication('VIS', 'VV30') });
    const file = await upload(applicant);
    const data = {
      ...visaApplication('VIS', 'VV30'),
      characterQuestions: (visa.data.characterQuestions ?? []).map((q) => ({
        ...q,
        answer: false,
      })),
      documents: (visa.data.documents ?? []).map((d) => ({ ...d, file })),
      sponsorship: { sponsored: true, sponsorReference: reference },
    };
    const submit = () =>
      call('POST', `${VISA}/${visa.id}/actions/submit`, applicant, { version: visa.version, data });
    return { visa, data, submit };
  }
  const refusedAsInvalid = (response: { statusCode: number; json(): unknown }) => {
    expect(response.statusCode).toBe(400);
    const { error } = response.json() as {
      error: { fields: Array<{ path: string; message: string }> };
    };
    expect(error.fields).toContainEqual(
      expect.objectContaining({
        path: '/sponsorship/sponsorReference',
        message: 'Invalid Sponsor reference',
      }),
    );
  };
  const derivedProblems = async (reference: string) => {
    const response = await call('POST', `${VISA}/derive`, applicant, {
      data: {
        ...visaApplication('VIS', 'VV30'),
        sponsorship: { sponsored: true, sponsorReference: reference },
      },
    });
    return (response.json() as { problems: Array<{ path: string }> }).problems;
  };
  const lastNotice = async (id: string) =>
    (await messagesAbout(api.server.database.db, id)).slice(-1)[0]!;

  it('renews before expiry: the number stays, the expiry and its timer move on from the old one', async () => {
    const sponsorship = await newSponsorship();
    const reference = sponsorship.data.header!.reference!;
    const oldExpiry = sponsorship.data.header!.expiryDate!;

    // Only its owner starts a renewal, and only from a granted sponsorship; nothing is made else.
    const foreign = await call('POST', BASE, stranger, { action: 'renew', from: sponsorship.id });
    expect(foreign.statusCode).toBe(404);
    const noFrom = await call('POST', BASE, sponsor, { action: 'renew' });
    expect(noFrom.statusCode).toBe(400);

    const renewal = await ok('POST', BASE, sponsor, { action: 'renew', from: sponsorship.id });
    expect(renewal.status).toBe('STORED');
    expect(renewal.owner).toBe(sponsorId);
    expect(renewal.data.header?.renews).toBe(reference);
    expect(renewal.data.organisation).toMatchObject({ fullName: 'Lagoon Trading Company Ltd' });
    // The sponsor cannot point the renewal at another sponsorship: the header is not theirs.
    const moved = await call('PUT', `${BASE}/${renewal.id}`, sponsor, {
      version: renewal.version,
      data: { ...sponsorApplication('SPORG'), header: { renews: 'SPN-1999-000001' } },
    });
    expect((moved.json() as View).data.header?.renews).toBe(reference);

    const done = await grantedFrom(await read(renewal.id), 'SPO1Y');
    expect(done.status).toBe('RENEWAL GRANTED');
    expect(done.data.header?.reference).toBeUndefined();
    const newExpiry = lastDayAfterYears(dayAfter(oldExpiry), 1);
    expect(done.data.header).toMatchObject({
      effectiveDate: dayAfter(oldExpiry),
      expiryDate: newExpiry,
    });

    const renewed = await read(sponsorship.id);
    expect(renewed.status).toBe('GRANTED');
    expect(renewed.data.header).toMatchObject({ reference, expiryDate: newExpiry });
    expect(renewed.timers).toEqual([
      expect.objectContaining({ name: 'validityEnds', dueAt: `${newExpiry}T00:00:00.000Z` }),
    ]);
    const history = (
      await call('GET', `${BASE}/${sponsorship.id}/history`, verifier)
    ).json() as Array<{
      action: string;
    }>;
    expect(history.map((line) => line.action)).toContain('extend');
    // The renewed sponsorship is still the one visas name.
    expect(await derivedProblems(reference)).toEqual([]);
    // A second renewal grant extends from the new expiry; a renewal of a renewal is refused.
    const again = await call('POST', BASE, sponsor, { action: 'renew', from: renewal.id });
    expect(again.statusCode).toBe(409);
  });

  it('suspends with a reason (visas naming it refused), reinstates, and lists the visas naming it', async () => {
    const sponsorship = await newSponsorship();
    const reference = sponsorship.data.header!.reference!;
    const first = await visaNaming(reference);
    const submittedVisa = await first.submit();
    expect(submittedVisa.statusCode, submittedVisa.body).toBe(200);

    const noReason = await act(sponsorship, 'suspend', verifier);
    expect(noReason.statusCode).toBe(400);
    expect((await read(sponsorship.id)).status).toBe('GRANTED');
    // Only an officer suspends.
    expect((await act(sponsorship, 'suspend', sponsor, { notes: 'x' })).statusCode).toBe(403);

    const suspended = await act(sponsorship, 'suspend', verifier, {
      notes: 'Documents sous enquête',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect((suspended.json() as View).status).toBe('SUSPENDED');
    const notice = await lastNotice(sponsorship.id);
    expect(notice.owner).toBe(sponsorId);
    expect(notice.subject).toContain('Suspendu');
    expect(notice.body).toContain('Documents sous enquête');
    expect(notice.body).toContain(reference);

    const second = await visaNaming(reference);
    refusedAsInvalid(await second.submit());
    expect(await derivedProblems(reference)).toContainEqual(
      expect.objectContaining({ path: '/sponsorship/sponsorReference' }),
    );

    const reinstated = await act(suspended.json() as View, 'reinstate', verifier, {
      notes: 'Enquête close',
    });
    expect(reinstated.statusCode, reinstated.body).toBe(200);
    expect((reinstated.json() as View).status).toBe('GRANTED');
    expect((await lastNotice(sponsorship.id)).subject).toContain('Accordé');
    const accepted = await second.submit();
    expect(accepted.statusCode, accepted.body).toBe(200);

    // The sponsorship's screen lists both, for its owner and officers, for nobody else.
    const list = await call('GET', `${BASE}/${sponsorship.id}/referenced-by/visas`, sponsor);
    expect(list.statusCode, list.body).toBe(200);
    const table = list.json() as {
      columns: Array<{ key: string }>;
      items: Array<{ values: Record<string, string | null> }>;
      more: boolean;
    };
    expect(table.columns.map((c) => c.key)).toEqual([
      'number',
      '/applicant/givenName',
      '/applicant/familyName',
      'status',
      'submittedAt',
    ]);
    const numbers = [submittedVisa, accepted].map((r) => (r.json() as View).number);
    expect(table.items.map((item) => item.values.number).sort()).toEqual(numbers.sort());
    expect(table.items[0]!.values.status).toBe('SUBMITTED');
    expect(table.more).toBe(false);
    expect(
      (await call('GET', `${BASE}/${sponsorship.id}/referenced-by/visas`, verifier)).statusCode,
    ).toBe(200);
    expect(
      (await call('GET', `${BASE}/${sponsorship.id}/referenced-by/visas`, stranger)).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `${BASE}/${sponsorship.id}/referenced-by/other`, sponsor)).statusCode,
    ).toBe(404);
  });

  it('revokes for good: visas naming it refused, those already granted flagged for review', async () => {
    const sponsorship = await newSponsorship();
    const reference = sponsorship.data.header!.reference!;
    // A visa granted earlier on this sponsorship (its grant is the visa workflow's own story).
    const earlier = await visaNaming(reference);
    const granted = (await earlier.submit()).json() as View;
    await api.tables
      .updateTable('document')
      .set({ status: 'GRANTED' })
      .where('id', '=', granted.id)
      .execute();
    const pending = await visaNaming(reference);

    const revoked = await act(sponsorship, 'revoke', verifier, { notes: 'Fausse déclaration' });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((revoked.json() as View).status).toBe('REVOKED');
    const notice = await lastNotice(sponsorship.id);
    expect(notice.subject).toContain('Révoqué');
    expect(notice.body).toContain('Fausse déclaration');

    const flags = await call('GET', `${VISA}/${granted.id}/flags`, visaOfficer);
    expect(flags.statusCode, flags.body).toBe(200);
    expect((flags.json() as { flags: string[] }).flags).toEqual(['sponsorshipReview']);
    const lines = (
      await call('GET', `${VISA}/${granted.id}/history`, visaOfficer)
    ).json() as Array<{
      action: string;
      notes?: string;
    }>;
    expect(lines).toContainEqual(
      expect.objectContaining({ action: 'flag:set', notes: 'Sponsorship to review' }),
    );
    refusedAsInvalid(await pending.submit());
    // Final: no reinstatement.
    const back = await act(revoked.json() as View, 'reinstate', verifier, { notes: 'x' });
    expect(back.statusCode).toBe(409);
  });

  it('refuses a visa submission that commits after a suspension it raced', async () => {
    const sponsorship = await newSponsorship();
    const reference = sponsorship.data.header!.reference!;
    const racing = await visaNaming(reference);
    // The suspension holds the sponsorship's row while the submission checks it: the check
    // waits (FOR SHARE) and reads the status committed, not the one it would have seen before.
    let submission: Promise<{ statusCode: number; json(): unknown }> | undefined;
    await api.tables.transaction().execute(async (trx) => {
      await trx
        .updateTable('document')
        .set({ status: 'SUSPENDED' })
        .where('id', '=', sponsorship.id)
        .execute();
      submission = racing.submit();
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    refusedAsInvalid(await submission!);
    // The table's query is one the declared index answers.
    const plan = await api.server.database.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await sql<Record<string, string>>`explain select id from document
        where type = 'visa-application'
        and (upper(btrim(data #>> '{sponsorship,sponsorReference}'))) = ${reference}`.execute(trx);
      return rows.map((row) => Object.values(row)[0]).join('\n');
    });
    expect(plan).toMatch(/document_list_visa_application_\w+/);
  });
});
