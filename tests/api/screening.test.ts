import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { applicationsThrough, signedPersona, type SignedPersona } from '../support/personas';
import { submittedVisa } from '../support/submitted-applications';
import { visaApplication } from '../support/visa-data';

/**
 * Screening against the block catalogues (docs/workflows.md, "Screening"): the visa workflow
 * declares that its passport number and document code are matched with the PassportBlock
 * catalogue's entries (and its nationality with CountryBlock's, its sub-document with the sub-*
 * ones) at submission and again before a grant. A hit refuses the action with a neutral message
 * that reveals nothing of the lists, and is kept for the officers, never shown to the applicant;
 * an entry no longer valid or not in force is not applied; a block written after a submission
 * flags the submitted case, which the officers' queues show and filter.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;
const NEUTRAL_EN = 'We cannot accept this application online. Please contact the service.';
const NEUTRAL_FR =
  'Nous ne pouvons pas accepter cette demande en ligne. Veuillez contacter le service.';

type View = { id: string; version: number; status: string; data: Record<string, unknown> };
type Hit = {
  catalog: string;
  catalogTitle: string;
  entryKey: string;
  reason: string | null;
  matched: Record<string, string>;
  action: string;
  outcome: string;
  at: string;
};
type Item = Record<string, unknown>;

describe.each(databaseKinds())('screening against the block lists on %s', (kind) => {
  let api: ApiHarness;
  let applicant: SignedPersona;
  let verifier: SignedPersona;
  let manager: string;
  /** An officer of the Submitted and search queues. */
  let officer: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    [applicant, verifier] = await Promise.all([
      signedPersona(api, 'applicant'),
      signedPersona(api, 'verifier'),
    ]);
    manager = await api.tokenFor(['asypx-catalog-manage']);
    officer = await api.tokenFor(['visa-application-submitted', 'visa-application-search']);
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    token: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => api.call(method, url, { token, body, headers });

  /** A block entry of `catalog` written through the catalogue API by its manager. */
  async function block(catalog: string, entry: Record<string, unknown>) {
    const created = await api.call('POST', `/api/catalog/v1/${catalog}`, {
      token: manager,
      body: { startTime: '2020-01-01T00:00:00Z', status: true, ...entry },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json() as { id: string; version: number; data: Record<string, unknown> };
  }

  /** A VIS application with this passport, stored and completed: ready to submit. */
  async function readyApplication(passportNumber: string) {
    const base = visaApplication('VIS', 'VV30');
    const data = { ...base, applicant: { ...base.applicant, passportNumber } };
    const created = await call('POST', BASE, applicant.token, { data });
    expect(created.statusCode, created.body).toBe(201);
    const stored = created.json() as View & {
      data: { characterQuestions: Item[]; documents: Item[] };
    };
    const file = await applicationsThrough(api).uploadPdf(applicant.token);
    const filled = {
      ...data,
      characterQuestions: stored.data.characterQuestions.map((q) => ({ ...q, answer: false })),
      documents: stored.data.documents.map((d) => ({ ...d, file })),
    };
    return { stored, filled };
  }

  const submit = (ready: { stored: View; filled: unknown }, headers?: Record<string, string>) =>
    call(
      'POST',
      `${BASE}/${ready.stored.id}/actions/submit`,
      applicant.token,
      { version: ready.stored.version, data: ready.filled },
      headers,
    );

  const hitsOf = async (id: string, token = verifier.token) => {
    const answer = await call('GET', `${BASE}/${id}/screening`, token);
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json() as { items: Hit[] }).items;
  };

  it('refuses the submission of a blocked passport neutrally, in English and French, and shows the hit to the verifier only', async () => {
    await block('passport-block', {
      documentCode: 'VIS',
      passportNumber: 'BL0000001',
      reason: 'Reported stolen to the police',
      i18n: { fr: { reason: 'Déclaré volé à la police' } },
    });
    const ready = await readyApplication('BL0000001');

    const refused = await submit(ready);
    expect(refused.statusCode, refused.body).toBe(422);
    const problem = refused.json() as { error: { code: string; message: string } };
    expect(problem.error).toMatchObject({ code: 'SCREENING_REFUSED', message: NEUTRAL_EN });
    // Nothing of the block list in the answer: no catalogue, reason nor number.
    expect(refused.body).not.toMatch(/block|stolen|BL0000001/i);
    const french = await submit(ready, { 'accept-language': 'fr' });
    expect(french.statusCode).toBe(422);
    expect((french.json() as { error: { message: string } }).error.message).toBe(NEUTRAL_FR);
    expect(french.body).not.toMatch(/block|vol|BL0000001/i);

    // Refused: the application is still stored, as it was.
    const after = (await call('GET', `${BASE}/${ready.stored.id}`, applicant.token)).json() as View;
    expect(after).toMatchObject({ status: 'STORED', version: ready.stored.version });

    // The refusals were recorded although their transactions rolled back.
    const hits = await hitsOf(ready.stored.id);
    expect(hits).toHaveLength(2);
    expect(hits[0]).toMatchObject({
      catalog: 'passport-block',
      catalogTitle: 'Passport blocks',
      reason: 'Reported stolen to the police',
      matched: { documentCode: 'VIS', passportNumber: 'BL0000001' },
      action: 'submit',
      outcome: 'refused',
    });
    const inFrench = await call(
      'GET',
      `${BASE}/${ready.stored.id}/screening`,
      verifier.token,
      undefined,
      {
        'accept-language': 'fr',
      },
    );
    expect((inFrench.json() as { items: Hit[] }).items[0]).toMatchObject({
      catalogTitle: 'Blocages de passeports',
      reason: 'Déclaré volé à la police',
    });

    // The applicant never reads the hits, and nothing of them comes in what it reads.
    const own = await call('GET', `${BASE}/${ready.stored.id}/screening`, applicant.token);
    expect(own.statusCode).toBe(403);
    expect(own.body).not.toMatch(/block|stolen/i);
    const answers = [
      await call('GET', `${BASE}/${ready.stored.id}`, applicant.token),
      await call('GET', `${BASE}/${ready.stored.id}/history`, applicant.token),
      await call('GET', `${BASE}/${ready.stored.id}/versions`, applicant.token),
      await call('PATCH', BASE, applicant.token, {}),
    ];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.body).not.toMatch(/screening|passport-block|stolen/i);
    }
    // Nor may it filter its own documents on them.
    const filtered = await call('PATCH', BASE, applicant.token, {
      filter: [{ field: 'screeningHit', criterion: 'equals', value: true }],
    });
    expect(filtered.statusCode).toBe(400);
  });

  it('refuses a creation that submits at once (drop) on the nationality, keeping its hit without a document', async () => {
    await block('country-block', { documentCode: 'VIS', code: 'KP', reason: 'Suspended' });
    const base = visaApplication('VIS', 'VV30');
    const data = { ...base, applicant: { ...base.applicant, nationality: 'KP' } };
    // Complete as a submission needs: the questions and files the catalogues ask for.
    const derived = await call('POST', `${BASE}/derive`, applicant.token, { data });
    expect(derived.statusCode, derived.body).toBe(200);
    const values = (derived.json() as { values: Record<string, Item[]> }).values;
    const file = await applicationsThrough(api).uploadPdf(applicant.token);
    const filled = {
      ...data,
      characterQuestions: (values['/characterQuestions'] ?? []).map((q) => ({
        ...q,
        answer: false,
      })),
      documents: (values['/documents'] ?? []).map((d) => ({ ...d, file })),
    };
    const refused = await call('POST', BASE, applicant.token, { action: 'drop', data: filled });
    expect(refused.statusCode, refused.body).toBe(422);
    expect((refused.json() as { error: { message: string } }).error.message).toBe(NEUTRAL_EN);
    const kept = await api.tables
      .selectFrom('screening_hit')
      .selectAll()
      .where('catalog', '=', 'country-block')
      .execute();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      document_id: null,
      action: 'drop',
      outcome: 'refused',
      matched: { documentCode: 'VIS', code: 'KP' },
    });
  });

  it('does not apply an entry whose period ended, nor one not in force', async () => {
    await block('passport-block', {
      documentCode: 'VIS',
      passportNumber: 'EX0000001',
      reason: 'Lost, then found',
      endTime: '2021-01-01T00:00:00Z',
    });
    await block('passport-block', {
      documentCode: 'VIS',
      passportNumber: 'OFF000001',
      reason: 'Lifted',
      status: false,
    });
    // Another document's block does not apply to a visitor visa either.
    await block('passport-block', { documentCode: 'WRK', passportNumber: 'WK0000001' });
    for (const passport of ['EX0000001', 'OFF000001', 'WK0000001']) {
      const ready = await readyApplication(passport);
      const submitted = await submit(ready);
      expect(submitted.statusCode, submitted.body).toBe(200);
      expect((submitted.json() as View).status).toBe('SUBMITTED');
      expect(await hitsOf(ready.stored.id)).toEqual([]);
    }
  });

  it('flags a submitted case when a block is added later: its hit, the queues show and filter it, and the grant is refused', async () => {
    const submitted = await submittedVisa(applicationsThrough(api), applicant.token);
    expect(submitted.status).toBe('SUBMITTED');
    const clean = await submittedVisa(applicationsThrough(api), applicant.token);
    // Its number is matched whatever the case and spaces a manager types.
    const entry = await block('passport-block', {
      documentCode: 'VIS',
      passportNumber: 'pa1234567 ',
      reason: 'Cancelled by the issuing authority',
    });
    // Both carry the same passport (the support data's): both are flagged, once each.
    for (const id of [submitted.id, clean.id]) {
      const hits = await hitsOf(id);
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({
        catalog: 'passport-block',
        action: 'rescreen',
        outcome: 'flagged',
        reason: 'Cancelled by the issuing authority',
      });
    }
    // The entry changed rescreens: a case is not flagged twice by the same entry.
    const changed = await api.call('PUT', `/api/catalog/v1/passport-block/${entry.id}`, {
      token: manager,
      body: { version: entry.version, data: { ...entry.data, reason: 'Cancelled' } },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // A block of another visa type (a 90-day one) does not flag this 30-day visitor's case.
    await block('sub-passport-block', { documentCode: 'VV90', passportNumber: 'PA1234567' });
    expect(await hitsOf(submitted.id)).toHaveLength(1);

    // The Submitted queue shows the column and filters on it.
    const queue = async (value?: boolean) => {
      const answer = await call('PATCH', BASE, officer, {
        list: 'submitted',
        options: { itemsPerPage: -1 },
        ...(value === undefined
          ? {}
          : { filter: [{ field: 'screeningHit', criterion: 'equals', value }] }),
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json() as { items: Array<{ id: string; screeningHit?: boolean }> }).items;
    };
    const all = await queue();
    expect(all.find((row) => row.id === submitted.id)?.screeningHit).toBe(true);
    const unflagged = all.filter((row) => row.screeningHit === false);
    expect(unflagged.length).toBeGreaterThan(0);
    const flagged = await queue(true);
    expect(flagged.map((row) => row.id)).toEqual(expect.arrayContaining([submitted.id, clean.id]));
    expect(flagged.every((row) => row.screeningHit)).toBe(true);
    const others = await queue(false);
    expect(others.map((row) => row.id)).not.toContain(submitted.id);
    expect(others.map((row) => row.id)).toEqual(
      expect.arrayContaining(unflagged.map((row) => row.id)),
    );

    // Sorted on it, the two flagged cases come first, then the others on the next page
    // (keyset paging through the EXISTS).
    const sorted = (more: Record<string, unknown>) =>
      call('PATCH', BASE, officer, {
        list: 'submitted',
        options: { itemsPerPage: 2, sort: [{ field: 'screeningHit', direction: 'desc' }], ...more },
      });
    const first = await sorted({});
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json() as { items: Array<{ screeningHit: boolean }>; nextCursor: string };
    expect(page.items.map((row) => row.screeningHit)).toEqual([true, true]);
    expect(page.nextCursor, first.body).toBeTruthy();
    const next = await sorted({ page: 2, cursor: page.nextCursor });
    expect(next.statusCode, next.body).toBe(200);
    const rest = (next.json() as { items: Array<{ screeningHit: boolean }> }).items;
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((row) => row.screeningHit === false)).toBe(true);

    // Paid, the case reaches the verifier, whose grant is refused while the block holds.
    const initiated = await call(
      'POST',
      `${BASE}/${submitted.id}/actions/initiate`,
      applicant.token,
      {
        version: submitted.version,
        data: { termsAccepted: true },
      },
    );
    expect(initiated.statusCode, initiated.body).toBe(200);
    await payOnGateway(api, TYPE, submitted.id, applicant.token);
    const paid = (await call('GET', `${BASE}/${submitted.id}`, verifier.token)).json() as View;
    expect(paid.status).toBe('PAID FOR VERIFICATION');
    const grant = await call('POST', `${BASE}/${submitted.id}/actions/grant`, verifier.token, {
      version: paid.version,
      data: { issuance: { remarks: 'ok' } },
    });
    expect(grant.statusCode, grant.body).toBe(422);
    expect((grant.json() as { error: { code: string } }).error.code).toBe('SCREENING_REFUSED');
    const hits = await hitsOf(submitted.id);
    expect(hits.map((hit) => [hit.action, hit.outcome])).toEqual(
      expect.arrayContaining([
        ['grant', 'refused'],
        ['rescreen', 'flagged'],
      ]),
    );
  });
});
