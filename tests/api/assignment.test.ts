import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHolding, type TestAccount } from '../support/accounts';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { applicationsThrough, signedPersona, type SignedPersona } from '../support/personas';
import { submittedVisa } from '../support/submitted-applications';

/**
 * Assigning a visa application (the `assign` action, payload `assignee`, effect setAssignee):
 * the officer is chosen among the accounts holding the role the workflow declares for the next
 * step (`assignees`: forward, the verification officer's), listed by name to holders of the
 * assign role; the server refuses anyone else with a translated 400 and changes nothing; the
 * Assigned list and the history say to whom.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;

type View = { id: string; version: number; status: string; assignee: string | null };
type Problem = {
  error: { message: string; fields: Array<{ path: string; rule: string; message: string }> };
};

describe.each(databaseKinds())('assigning an application on %s', (kind) => {
  let api: ApiHarness;
  let verifier: SignedPersona;
  let applicant: SignedPersona;
  let validator: SignedPersona;
  /** A member of the public whose own access unit grants the verification role. */
  let colleague: TestAccount;
  let colleagueToken: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    [verifier, applicant, validator] = await Promise.all([
      signedPersona(api, 'verifier'),
      signedPersona(api, 'applicant'),
      signedPersona(api, 'validator'),
    ]);
    colleague = await accountHolding(api, {
      login: 'kalo.forward',
      firstName: 'Kalo',
      lastName: 'Colleague',
      roles: ['visa-application-forward'],
    });
    colleagueToken = await api.issuer.token({
      sub: colleague.id,
      name: colleague.name,
      groups: ['visa-application-forward', 'visa-application-read'],
    });
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

  /** A visa application of the demo applicant, submitted and paid: it waits for assignment. */
  async function paidApplication(): Promise<View> {
    const submitted = await submittedVisa(applicationsThrough(api), applicant.token);
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
    return paid;
  }

  /** What an officer reads of a document: itself, its versions and its history. */
  const snapshot = async (id: string) => ({
    document: (await call('GET', `${BASE}/${id}`, verifier.token)).json() as unknown,
    versions: (await call('GET', `${BASE}/${id}/versions`, verifier.token)).json() as unknown,
    history: (await call('GET', `${BASE}/${id}/history`, verifier.token)).json() as unknown,
  });

  it("lists, to holders of the assign role, the accounts holding the next step's role, by name", async () => {
    const listed = await call('GET', `${BASE}/assignees/assign`, verifier.token);
    expect(listed.statusCode, listed.body).toBe(200);
    // The verifier holds it through their group (VERIFICATION, under OFFICERS); the colleague
    // through an access unit of their own. Nobody else of the demo holds it.
    expect((listed.json() as { items: unknown[] }).items).toEqual([
      { id: colleague.id, login: 'kalo.forward', name: 'Kalo Colleague', openCases: 0 },
      { id: verifier.id, login: 'verifier', name: 'Tavita Verifier', openCases: 0 },
    ]);
    expect((await call('GET', `${BASE}/assignees/assign`, applicant.token)).statusCode).toBe(403);
    // Only an action taking an assignee has assignees.
    expect((await call('GET', `${BASE}/assignees/query`, verifier.token)).statusCode).toBe(404);
    expect((await call('GET', `${BASE}/assignees/nothing`, verifier.token)).statusCode).toBe(404);
  });

  it('refuses an unknown or unqualified assignee with a translated 400, changing nothing', async () => {
    const doc = await paidApplication();
    const before = await snapshot(doc.id);
    const refusals: Array<[string, string, string]> = [
      ['nobody.xyz', 'unknownAccount', 'There is no account with the sign-in name nobody.xyz'],
      // The applicant's own login, and an officer of another step (validation).
      ['applicant', 'notAssignable', 'Ana Tuilagi cannot take this work'],
      ['validator', 'notAssignable', 'Losa Validator cannot take this work'],
      [applicant.id, 'notAssignable', 'Ana Tuilagi cannot take this work'],
      ['  ', 'required', ''],
      // A NUL character is refused before any route reads the request.
      ['nul\u0000byte', 'nulCharacter', ''],
    ];
    for (const [assignee, rule, message] of refusals) {
      const refused = await call('POST', `${BASE}/${doc.id}/actions/assign`, verifier.token, {
        version: doc.version,
        assignee,
      });
      expect(refused.statusCode, `${assignee}: ${refused.body}`).toBe(400);
      const field = (refused.json() as Problem).error.fields[0];
      expect(field).toMatchObject({ path: '/assignee', rule });
      expect(field?.message).toContain(message);
    }
    const french = await call(
      'POST',
      `${BASE}/${doc.id}/actions/assign`,
      verifier.token,
      { version: doc.version, assignee: 'validator' },
      { 'accept-language': 'fr' },
    );
    expect((french.json() as Problem).error.fields[0]?.message).toBe(
      "Losa Validator ne peut pas traiter ce dossier : cette personne ne détient pas le rôle nécessaire à l'étape suivante",
    );
    expect(await snapshot(doc.id)).toEqual(before);
    // The same refusals for whoever asks: the validator holds no assign role at all.
    expect(
      (
        await call('POST', `${BASE}/${doc.id}/actions/assign`, validator.token, {
          version: doc.version,
          assignee: 'verifier',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('assigns by sign-in name or by id; the Assigned list and the history say to whom', async () => {
    const doc = await paidApplication();
    const assigned = await call('POST', `${BASE}/${doc.id}/actions/assign`, verifier.token, {
      version: doc.version,
      assignee: 'VERIFIER',
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json()).toMatchObject({
      assignee: verifier.id,
      status: 'PAID FOR VERIFICATION',
    });

    const list = async (body: Record<string, unknown>) => {
      const response = await call('PATCH', BASE, verifier.token, { list: 'assigned', ...body });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { items: Array<{ id: string; assigneeName?: string }> }).items;
    };
    expect((await list({})).find((item) => item.id === doc.id)?.assigneeName).toBe(
      'Tavita Verifier',
    );
    const filtered = await list({
      filter: [{ field: 'assigneeName', criterion: 'contains', value: 'tavita' }],
      options: { sort: [{ field: 'assigneeName', direction: 'asc' }] },
    });
    expect(filtered.map((item) => item.id)).toContain(doc.id);
    expect(filtered.every((item) => item.assigneeName === 'Tavita Verifier')).toBe(true);

    // Reassigned by id (what the assignment screen's choice sends): the colleague's now.
    const reassigned = await call('POST', `${BASE}/${doc.id}/actions/assign`, verifier.token, {
      version: (assigned.json() as View).version,
      assignee: colleague.id,
      // The application is the verifier's: handing it on says why (`reassignReason`).
      notes: 'Kalo takes the Samoan applications',
    });
    expect(reassigned.statusCode, reassigned.body).toBe(200);
    const mine = await call('PATCH', BASE, colleagueToken, { list: 'mine' });
    expect((mine.json() as { items: Array<{ id: string }> }).items.map((i) => i.id)).toContain(
      doc.id,
    );
    const history = (
      await call('GET', `${BASE}/${doc.id}/history`, verifier.token)
    ).json() as Array<{
      action: string;
      assignedTo?: string;
    }>;
    expect(history.filter((line) => line.action === 'assign')).toEqual([
      expect.objectContaining({ assignedTo: 'Tavita Verifier' }),
      expect.objectContaining({ assignedTo: 'Kalo Colleague' }),
    ]);
    // No other line says it assigned anyone.
    expect(history.filter((line) => line.assignedTo !== undefined)).toHaveLength(2);
  });
});
