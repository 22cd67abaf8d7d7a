import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskRow } from '../../src/core/dashboard/types';
import type { SearchResult } from '../../src/core/search/protocol';
import { accountHolding } from '../support/accounts';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { OWNER, TYPE, VALID_DATA } from '../support/documents';

const TASKS = '/api/evisa/dashboard/tasks';
const role = (suffix: string) => `test-document-${suffix}`;

describe.each(databaseKinds())('My Tasks on %s', (kind) => {
  let api: ApiHarness;
  let removeDefinitions: () => Promise<void>;
  let owner: string;
  let assigner: string;
  /** Holds every officer role: serves the queue and has work assigned. */
  let officer: string;
  /** Decides (grant) but does not assign: no queue, only their own assignments. */
  let decider: string;
  /** The officer's account id, which their assignments name. */
  let officerId: string;
  type Planted =
    | 'queued'
    | 'queuedToo'
    | 'draft'
    | 'unpaid'
    | 'mine'
    | 'decided'
    | 'theirs'
    | 'applicants'
    | 'queried';
  const doc = {} as Record<Planted, string>;

  const tasks = (token: string | undefined, body: unknown = {}) =>
    api.call('PATCH', TASKS, { token, body });
  const page = async (token: string, body: unknown = {}) => {
    const response = await tasks(token, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as SearchResult<TaskRow>;
  };
  const act = async (id: string, action: string, body: Record<string, unknown>, token: string) => {
    const response = await api.call('POST', `/api/evisa/${TYPE}/${id}/actions/${action}`, {
      token,
      body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { version: number };
  };
  /** A document stored by the owner and, unless `stored`, submitted without a fee. */
  const submitted = async (stored = false, data: Record<string, unknown> = VALID_DATA) => {
    const created = await api.call('POST', `/api/evisa/${TYPE}`, { token: owner, body: { data } });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    if (!stored) await act(id, 'submit', { version: 1, data }, owner);
    return id;
  };

  beforeAll(async () => {
    const definitions = await definitionsWithFixtures();
    removeDefinitions = definitions.remove;
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    owner = await api.issuer.token({
      sub: OWNER,
      groups: [role('submit'), role('pay'), 'view-profile'],
    });
    assigner = await api.issuer.token({
      sub: 'assigner-1',
      groups: [role('assign'), 'view-profile'],
    });
    // Assigned officers are accounts of the directory holding a role of the next step.
    const [first, second] = await Promise.all([
      accountHolding(api, {
        login: 'officer-1',
        firstName: 'Olu',
        lastName: 'One',
        roles: [role('query'), role('grant'), role('reject')],
      }),
      accountHolding(api, {
        login: 'officer-2',
        firstName: 'Tui',
        lastName: 'Two',
        roles: [role('grant')],
      }),
    ]);
    officerId = first.id;
    officer = await api.issuer.token({
      sub: first.id,
      groups: ['search', 'assign', 'query', 'grant', 'reject'].map(role).concat('manage-account'),
    });
    decider = await api.issuer.token({ sub: second.id, groups: [role('grant'), 'view-profile'] });

    doc.queued = await submitted();
    doc.queuedToo = await submitted();
    doc.draft = await submitted(true);
    // With a fee it waits for payment (SUBMITTED), a status no queue holds.
    doc.unpaid = await submitted(false, { ...VALID_DATA, fees: { total: '50.00' } });
    doc.mine = await submitted();
    await act(doc.mine, 'assign', { version: 2, assignee: 'officer-1' }, assigner);
    doc.decided = await submitted();
    const assigned = await act(
      doc.decided,
      'assign',
      { version: 2, assignee: 'officer-1' },
      assigner,
    );
    // Granted: a final status, nothing left to do.
    await act(doc.decided, 'grant', { version: assigned.version, data: {} }, officer);
    doc.theirs = await submitted();
    await act(doc.theirs, 'assign', { version: 2, assignee: 'officer-2' }, assigner);
    doc.applicants = await submitted();
    // Assigned to someone who opens no list of the workflow (as assignments were kept before
    // assignees were checked): not their task.
    await api.tables
      .updateTable('document')
      .set({ assignee: OWNER })
      .where('id', '=', doc.applicants)
      .execute();
    // Queried: it waits for its owner's reply (the workflow's tasks.owner), in no queue.
    doc.queried = await submitted();
    await act(doc.queried, 'query', { version: 2, notes: 'Please send a clearer scan' }, officer);
  });
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  it('gives an officer their assignments and the queue of the lists they serve', async () => {
    const result = await page(officer, {
      options: { sort: [{ field: 'reason', direction: 'asc' }] },
    });
    expect(result.total).toBe(3);
    const byId = new Map(result.items.map((r) => [r.id, r]));
    expect([...byId.keys()].sort()).toEqual([doc.mine, doc.queued, doc.queuedToo].sort());
    expect(result.items[0]).toEqual({
      workflow: TYPE,
      documentType: TYPE,
      id: doc.mine,
      number: expect.stringMatching(/^TD-\d{4}-\d{5}$/),
      reference: null,
      status: 'SUBMITTED FOR VERIFICATION',
      updatedAt: expect.any(String),
      submittedAt: expect.any(String),
      assignee: officerId,
      reason: 'assigned',
      list: null,
    });
    expect(byId.get(doc.queued)).toMatchObject({
      reason: 'queue',
      list: 'assignable',
      assignee: null,
      status: 'SUBMITTED FOR VERIFICATION',
    });
  });

  it('gives the queue to whoever holds the list roles, and assignments only to the assignee', async () => {
    const queue = await page(assigner);
    expect(queue.items.map((r) => [r.id, r.reason, r.list]).sort()).toEqual(
      [
        [doc.queued, 'queue', 'assignable'],
        [doc.queuedToo, 'queue', 'assignable'],
      ].sort(),
    );
    const decided = await page(decider);
    expect(decided.items.map((r) => [r.id, r.reason])).toEqual([[doc.theirs, 'assigned']]);
  });

  it('gives the owner their documents waiting for them (a query to answer), until they reply', async () => {
    const applicant = await page(owner);
    expect(applicant.total).toBe(1);
    expect(applicant.items[0]).toMatchObject({
      id: doc.queried,
      status: 'QUERIED',
      reason: 'owner',
      list: null,
    });
    const filtered = await page(owner, {
      filter: [{ field: 'reason', criterion: 'equals', value: 'owner' }],
    });
    expect(filtered.items.map((r) => r.id)).toEqual([doc.queried]);
    // The message about the query names the document and its workflow, for a link to it.
    const inbox = await api.call('GET', '/api/evisa/dashboard/inbox', { token: owner });
    expect(inbox.statusCode, inbox.body).toBe(200);
    const answer = inbox.json() as { unread: number; items: Array<{ status: string }> };
    expect(answer).toMatchObject({ workflow: 'inbox-message' });
    expect(answer.unread).toBe(answer.items.filter((m) => m.status !== 'READ').length);
    expect((inbox.json() as { items: unknown[] }).items).toContainEqual(
      // Marked with the language it was written in (the holder's; English by default), so the
      // portal can say so when the reader has since chosen another; its link leads to the
      // screen where the holder answers the query.
      expect.objectContaining({
        status: 'CREATED',
        language: 'en',
        about: expect.objectContaining({
          type: TYPE,
          id: doc.queried,
          path: expect.stringMatching(new RegExp(`/${doc.queried}$`)),
        }),
      }),
    );
    // The owner's task is nobody else's: the officers who queried it do not see it.
    expect((await page(officer)).items.map((r) => r.id)).not.toContain(doc.queried);
    await act(doc.queried, 'submit-reply', { version: 3, data: VALID_DATA }, owner);
    expect(await page(owner)).toMatchObject({ total: 0, items: [] });
  });

  it('filters on reason and list, and pages in the database', async () => {
    const assignedOnly = await page(officer, {
      filter: [{ field: 'reason', criterion: 'equals', value: 'assigned' }],
    });
    expect(assignedOnly.items.map((r) => r.id)).toEqual([doc.mine]);
    const queueOnly = await page(officer, {
      filter: [{ field: 'list', criterion: 'equals', value: 'assignable' }],
    });
    expect(queueOnly.items.map((r) => r.id).sort()).toEqual([doc.queued, doc.queuedToo].sort());
    const options = { itemsPerPage: 2, sort: [{ field: 'updatedAt', direction: 'asc' }] };
    const first = await page(officer, { options: { ...options, page: 1 } });
    const second = await page(officer, { options: { ...options, page: 2 } });
    expect(first).toMatchObject({ total: 3, page: 1, itemsPerPage: 2 });
    expect(first.items).toHaveLength(2);
    expect(second.items).toHaveLength(1);
    expect([...first.items, ...second.items].map((r) => r.id).sort()).toEqual(
      [doc.mine, doc.queued, doc.queuedToo].sort(),
    );
  });

  it('needs a signed-in caller (401) holding view-profile or manage-account (403)', async () => {
    expect((await tasks(undefined)).statusCode).toBe(401);
    const noDashboardRole = await api.issuer.token({ sub: 'officer-1', groups: [role('assign')] });
    const refused = await tasks(noDashboardRole);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('FORBIDDEN');
  });
});
