import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHolding, type TestAccount } from '../support/accounts';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { applicationsThrough, signedPersona, type SignedPersona } from '../support/personas';
import { submittedVisa } from '../support/submitted-applications';

/**
 * Assignment by workload (docs/workflows.md, "Assignment and workload"): the assign action's
 * candidates come with their open cases of the type, fewest first; a document already assigned
 * is handed to someone else only with a reason (`reassignReason`), which the history keeps with
 * from whom and to whom; the team view (`workload`) counts open cases per officer and status.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;
const PAID = 'PAID FOR VERIFICATION';

type View = { id: string; version: number; status: string; assignee: string | null };
type Candidate = { id: string; login: string; name: string; openCases: number };
type Workload = {
  action: string;
  statuses: string[];
  rows: Array<{
    officer: { id: string; login: string; name: string; member: boolean } | null;
    counts: Record<string, number>;
    total: number;
  }>;
};
type Problem = {
  error: { fields: Array<{ path: string; rule: string; message: string }> };
};

describe.each(databaseKinds())('assignment by workload on %s', (kind) => {
  let api: ApiHarness;
  let verifier: SignedPersona;
  let applicant: SignedPersona;
  let validator: SignedPersona;
  /** A second officer holding the verification role through an access unit of their own. */
  let colleague: TestAccount;
  /** Three paid applications, waiting for assignment. */
  let docs: View[];

  beforeAll(async () => {
    api = await startApiServer(kind);
    [verifier, applicant, validator] = await Promise.all([
      signedPersona(api, 'verifier'),
      signedPersona(api, 'applicant'),
      signedPersona(api, 'validator'),
    ]);
    colleague = await accountHolding(api, {
      login: 'ana.lima',
      firstName: 'Ana',
      lastName: 'Lima',
      roles: ['visa-application-forward'],
    });
    docs = [];
    for (let i = 0; i < 3; i++) docs.push(await paidApplication());
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

  async function paidApplication(): Promise<View> {
    const submitted = await submittedVisa(applicationsThrough(api), applicant.token);
    const initiated = await call(
      'POST',
      `${BASE}/${submitted.id}/actions/initiate`,
      applicant.token,
      { version: submitted.version, data: { termsAccepted: true } },
    );
    expect(initiated.statusCode, initiated.body).toBe(200);
    await payOnGateway(api, TYPE, submitted.id, applicant.token);
    const paid = (await call('GET', `${BASE}/${submitted.id}`, verifier.token)).json() as View;
    expect(paid.status).toBe(PAID);
    return paid;
  }

  const candidates = async () => {
    const listed = await call('GET', `${BASE}/assignees/assign`, verifier.token);
    expect(listed.statusCode, listed.body).toBe(200);
    return (listed.json() as { items: Candidate[] }).items;
  };
  const workload = async () => {
    const answer = await call('GET', `${BASE}/workload`, verifier.token);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as Workload;
  };
  const current = async (id: string) =>
    (await call('GET', `${BASE}/${id}`, verifier.token)).json() as View;
  const assign = async (id: string, assignee: string, notes?: string, language = 'en') =>
    call(
      'POST',
      `${BASE}/${id}/actions/assign`,
      verifier.token,
      { version: (await current(id)).version, assignee, ...(notes ? { notes } : {}) },
      { 'accept-language': language },
    );

  it('lists the role holders with their open cases, fewest first, to those who may assign', async () => {
    const before = await candidates();
    // Only the holders of the next step's role: the verifier (by group) and the colleague.
    expect(before.map((c) => c.login).sort()).toEqual(['ana.lima', 'verifier']);
    const open = (items: Candidate[], login: string) =>
      items.find((c) => c.login === login)!.openCases;

    for (const doc of docs.slice(0, 2))
      expect((await assign(doc.id, 'verifier')).statusCode).toBe(200);
    expect((await assign(docs[2]!.id, 'ana.lima')).statusCode).toBe(200);

    const after = await candidates();
    expect(open(after, 'verifier')).toBe(open(before, 'verifier') + 2);
    expect(open(after, 'ana.lima')).toBe(open(before, 'ana.lima') + 1);
    expect(after.find((c) => c.login === 'ana.lima')).toEqual({
      id: colleague.id,
      login: 'ana.lima',
      name: 'Ana Lima',
      openCases: open(after, 'ana.lima'),
    });
    // Sorted by open cases, fewest first.
    const counts = after.map((c) => c.openCases);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));

    // Nobody who may not take the assign action reads them: the applicant, the validator.
    for (const token of [applicant.token, validator.token])
      expect((await call('GET', `${BASE}/assignees/assign`, token)).statusCode).toBe(403);
  });

  it('refuses a reassignment without a reason, in the reader language, and records one given', async () => {
    const doc = docs[2]!;
    expect((await current(doc.id)).assignee).toBe(colleague.id);
    const refused = await assign(doc.id, 'verifier');
    expect(refused.statusCode, refused.body).toBe(400);
    expect((refused.json() as Problem).error.fields[0]).toMatchObject({
      path: '/notes',
      rule: 'reassignReason',
      message: expect.stringContaining('Ana Lima') as unknown,
    });
    const french = await assign(doc.id, 'verifier', '   ', 'fr');
    expect((french.json() as Problem).error.fields[0]?.message).toBe(
      "Indiquez pourquoi vous retirez ce dossier à Ana Lima : une réattribution demande un motif, conservé dans l'historique",
    );
    // Refused: still the colleague's.
    expect((await current(doc.id)).assignee).toBe(colleague.id);
    // Assigning again to the one who holds it is no reassignment.
    expect((await assign(doc.id, 'ana.lima')).statusCode).toBe(200);

    const moved = await assign(doc.id, 'verifier', 'Ana is on leave this week');
    expect(moved.statusCode, moved.body).toBe(200);
    expect((moved.json() as View).assignee).toBe(verifier.id);
    const history = (
      await call('GET', `${BASE}/${doc.id}/history`, verifier.token)
    ).json() as Array<{
      action: string;
      notes: string | null;
      assignedTo?: string;
      assignedFrom?: string;
    }>;
    const lines = history.filter((line) => line.action === 'assign');
    expect(lines.at(-1)).toMatchObject({
      assignedFrom: 'Ana Lima',
      assignedTo: 'Tavita Verifier',
      notes: 'Ana is on leave this week',
    });
    // The first assignment took it from nobody; the one to the same person from nobody else.
    expect(lines[0]?.assignedFrom).toBeUndefined();
    expect(lines[1]?.assignedFrom).toBeUndefined();
  });

  it('counts the open cases per officer and status, and the unassigned, for those who may assign', async () => {
    const view = await workload();
    expect(view.action).toBe('assign');
    expect(view.statuses).toContain(PAID);
    expect(view.statuses).not.toContain('DISPATCHED');
    const row = (login: string | null) =>
      view.rows.find((r) => (r.officer?.login ?? null) === login)!;
    // The unassigned come last.
    expect(view.rows.at(-1)?.officer).toBeNull();
    expect(row('ana.lima').officer).toMatchObject({ name: 'Ana Lima', member: true });

    // Every count is what the candidates say and what the search finds, status by status.
    const items = await candidates();
    for (const login of ['verifier', 'ana.lima']) {
      const counted = row(login);
      expect(counted.total).toBe(items.find((c) => c.login === login)!.openCases);
      expect(counted.total).toBe(Object.values(counted.counts).reduce((a, b) => a + b, 0));
    }
    const searched = async (filter: unknown[]) => {
      const answer = await call('PATCH', BASE, verifier.token, {
        filter,
        options: { itemsPerPage: 1 },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json() as { total: number }).total;
    };
    const paidOf = async (assignee: string | null) =>
      searched([
        { field: 'status', criterion: 'equals', value: PAID },
        assignee === null
          ? { field: 'assignee', criterion: 'empty' }
          : { field: 'assignee', criterion: 'equals', value: assignee },
      ]);
    expect(row('verifier').counts[PAID] ?? 0).toBe(await paidOf(verifier.id));
    expect(row('ana.lima').counts[PAID] ?? 0).toBe(await paidOf(colleague.id));
    expect(row(null).counts[PAID] ?? 0).toBe(await paidOf(null));

    // One more paid application: one more unassigned; assigned, one more for its officer.
    const extra = await paidApplication();
    const more = await workload();
    const again = (login: string | null) =>
      more.rows.find((r) => (r.officer?.login ?? null) === login)!;
    expect(again(null).counts[PAID]).toBe((row(null).counts[PAID] ?? 0) + 1);
    expect((await assign(extra.id, 'ana.lima')).statusCode).toBe(200);
    const last = await workload();
    const final = (login: string | null) =>
      last.rows.find((r) => (r.officer?.login ?? null) === login)!;
    expect(final(null).counts[PAID] ?? 0).toBe(row(null).counts[PAID] ?? 0);
    expect(final('ana.lima').total).toBe(row('ana.lima').total + 1);

    // Nobody who may not assign reads it.
    for (const token of [applicant.token, validator.token])
      expect((await call('GET', `${BASE}/workload`, token)).statusCode).toBe(403);
  });
});
