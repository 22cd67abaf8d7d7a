import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountHolding } from '../support/accounts';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { definitionsWithFixtures } from '../support/definitions-dir';
import { personas, TYPE, VALID_DATA } from '../support/documents';
import { messagesAbout } from '../support/inbox';

describe.each(databaseKinds())('document service on %s', (kind) => {
  let api: ApiHarness;
  let removeDefinitions: () => Promise<void>;
  let who: Awaited<ReturnType<typeof personas>>;
  const base = `/api/evisa/${TYPE}`;

  beforeAll(async () => {
    const definitions = await definitionsWithFixtures();
    removeDefinitions = definitions.remove;
    api = await startApiServer(kind, { definitionsDir: definitions.dir });
    who = await personas(api);
  });
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  const store = (data: unknown = VALID_DATA, token = who.owner) =>
    api.call('POST', base, { token, body: { data } });
  const act = (id: string, action: string, body: Record<string, unknown>, token = who.owner) =>
    api.call('POST', `${base}/${id}/actions/${action}`, { token, body });
  const read = (id: string, token = who.owner) => api.call('GET', `${base}/${id}`, { token });
  const history = async (id: string) =>
    (await api.call('GET', `${base}/${id}/history`, { token: who.owner })).json();

  it('stores a draft, updates it with the version read, and keeps every version', async () => {
    const created = await store({ applicant: { name: 'Ana' } });
    expect(created.statusCode, created.body).toBe(201);
    const doc = created.json();
    expect(doc).toMatchObject({ status: 'STORED', version: 1, owner: 'applicant-1', number: null });
    expect(doc.allowedActions.sort()).toEqual(['cancel', 'delete', 'submit', 'update']);
    const updated = await api.call('PUT', `${base}/${doc.id}`, {
      token: who.owner,
      body: { version: 1, data: VALID_DATA },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ version: 2, data: VALID_DATA });
    const stale = await api.call('PUT', `${base}/${doc.id}`, {
      token: who.owner,
      body: { version: 1, data: { applicant: { name: 'Lost' } } },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('STALE_VERSION');
    const versions = (
      await api.call('GET', `${base}/${doc.id}/versions`, { token: who.owner })
    ).json();
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const first = (
      await api.call('GET', `${base}/${doc.id}/versions/1`, { token: who.owner })
    ).json();
    expect(first.data).toEqual({ applicant: { name: 'Ana' } });
    expect((await history(doc.id)).map((h: { operation: string }) => h.operation)).toEqual([
      'NEW -> STORED',
      'STORED -> STORED',
    ]);
  });

  it('submits with a fee to SUBMITTED and without to SUBMITTED FOR VERIFICATION, numbering gap-free', async () => {
    const withFee = (await store({ ...VALID_DATA, fees: { total: '120.00' } })).json();
    const paid = await act(withFee.id, 'submit', {
      version: 1,
      data: { ...VALID_DATA, fees: { total: '120.00' } },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({
      status: 'SUBMITTED',
      number: `TD-${new Date().getUTCFullYear()}-00001`,
    });
    const free = (await store()).json();
    const direct = await act(free.id, 'submit', { version: 1, data: VALID_DATA });
    expect(direct.json()).toMatchObject({
      status: 'SUBMITTED FOR VERIFICATION',
      number: `TD-${new Date().getUTCFullYear()}-00002`,
    });
  });

  it('refuses a submission that fails the schema or a named rule, changing nothing', async () => {
    const doc = (
      await store({ applicant: { name: 'Ana' }, questions: [{ code: 'Q1', answer: null }] })
    ).json();
    const refused = await act(doc.id, 'submit', {
      version: 1,
      data: {
        applicant: { name: 'Ana', email: 'not-an-email' },
        questions: [{ code: 'Q1', answer: null }],
      },
    });
    expect(refused.statusCode).toBe(400);
    const fields = refused.json().error.fields;
    expect(fields).toContainEqual(
      expect.objectContaining({ path: '/applicant/email', rule: 'format_email' }),
    );
    expect(fields).toContainEqual(
      expect.objectContaining({
        path: '/questions',
        message: 'Please answer all Character Questions',
      }),
    );
    const after = (await read(doc.id)).json();
    expect(after).toMatchObject({
      status: 'STORED',
      version: 1,
      data: { applicant: { name: 'Ana' } },
    });
    expect(await history(doc.id)).toHaveLength(1);
  });

  it('asks the server-only rule whether a code names a catalogue entry valid today', async () => {
    const manager = await api.tokenFor(['catalog-manage']);
    await api.call('POST', '/api/catalog/v1/country', {
      token: manager,
      body: { code: 'WS', name: 'Samoa', startTime: '2020-01-01T00:00:00Z' },
    });
    const doc = (await store()).json();
    const unknown = { applicant: { ...VALID_DATA.applicant, country: 'ZZ' } };
    const refused = await act(doc.id, 'submit', { version: 1, data: unknown }, who.owner);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toContainEqual({
      path: '/applicant/country',
      rule: 'unknownCatalogEntry',
      message: 'There is no such entry valid today',
    });
    expect((await read(doc.id)).json().version).toBe(1);
    const known = { applicant: { ...VALID_DATA.applicant, country: 'WS' } };
    expect((await act(doc.id, 'submit', { version: 1, data: known })).statusCode).toBe(200);
  });

  it('lets officers assign, query with notes, and notifies the owner through the outbox', async () => {
    const doc = (await store()).json();
    await act(doc.id, 'submit', { version: 1, data: VALID_DATA });
    const queue = await api.call('PATCH', base, {
      token: who.officer,
      body: { list: 'assignable' },
    });
    expect(queue.json().items.map((i: { id: string }) => i.id)).toContain(doc.id);
    // The officer assigned is an account of the directory holding a role of the next step.
    const olu = await accountHolding(api, {
      login: 'olu.officer',
      firstName: 'Olu',
      lastName: 'Officer',
      roles: ['test-document-query'],
    });
    const officer = await api.issuer.token({
      sub: olu.id,
      name: 'Olu Officer',
      email: 'olu@immigration.example',
      groups: ['search', 'assign', 'query', 'grant', 'reject'].map((r) => `${TYPE}-${r}`),
    });
    const assigned = await act(doc.id, 'assign', { version: 2, assignee: 'olu.officer' }, officer);
    expect(assigned.json()).toMatchObject({
      assignee: olu.id,
      status: 'SUBMITTED FOR VERIFICATION',
    });
    const mine = await api.call('PATCH', base, { token: officer, body: { list: 'mine' } });
    expect(mine.json().items.map((i: { id: string }) => i.id)).toContain(doc.id);
    const noNotes = await act(doc.id, 'query', { version: 3 }, officer);
    expect(noNotes.statusCode).toBe(400);
    expect(noNotes.json().error.fields[0]).toMatchObject({ path: '/notes', rule: 'required' });
    const queried = await act(
      doc.id,
      'query',
      { version: 3, notes: 'Please send a clearer passport scan' },
      officer,
    );
    expect(queried.json().status).toBe('QUERIED');
    const outbox = await api.tables
      .selectFrom('outbox')
      .selectAll()
      .where('document_id', '=', doc.id)
      .execute();
    expect(outbox.map((m) => `${m.channel}:${m.recipient}`)).toEqual(['email:ana@example.org']);
    expect(outbox[0]?.body).toContain('Please send a clearer passport scan');
    // The owner finds it in their inbox too.
    expect(await messagesAbout(api.server.database.db, doc.id)).toEqual([
      expect.objectContaining({
        owner: 'applicant-1',
        body: expect.stringContaining('Please send a clearer passport scan'),
      }),
    ]);
    // Officers read who queried it; its owner reads the service, without the officer's e-mail.
    const lastEntry = (await api.call('GET', `${base}/${doc.id}/history`, { token: officer }))
      .json()
      .at(-1);
    expect(lastEntry).toMatchObject({
      action: 'query',
      operation: 'SUBMITTED FOR VERIFICATION -> QUERIED',
      notes: 'Please send a clearer passport scan',
      name: 'Olu Officer',
      email: 'olu@immigration.example',
    });
    expect((await history(doc.id)).at(-1)).toMatchObject({
      action: 'query',
      notes: 'Please send a clearer passport scan',
      name: 'system:immigration-service',
      email: null,
      mobile: null,
    });
  });

  it("keeps officer sections out of the applicant's reach", async () => {
    const doc = (await store({ ...VALID_DATA, decision: { remarks: 'Approve me' } })).json();
    expect(doc.data.decision).toBeUndefined();
  });

  it('cancels and undoes back to the status before cancellation', async () => {
    const doc = (await store({ ...VALID_DATA, fees: { total: '50.00' } })).json();
    await act(doc.id, 'submit', { version: 1, data: { ...VALID_DATA, fees: { total: '50.00' } } });
    expect((await act(doc.id, 'cancel', { version: 2 })).json().status).toBe('CANCELLED');
    expect((await act(doc.id, 'undo', { version: 3 })).json().status).toBe('SUBMITTED');
  });

  it('answers 403 to a role-less user or a non-owner, 404 to a forged or foreign id, and changes nothing', async () => {
    const doc = (await store()).json();
    expect(
      (await act(doc.id, 'submit', { version: 1, data: VALID_DATA }, who.roleless)).statusCode,
    ).toBe(403);
    expect((await read(doc.id, who.stranger)).statusCode).toBe(404);
    expect(
      (await act(doc.id, 'update', { version: 1, data: VALID_DATA }, who.stranger)).statusCode,
    ).toBe(404);
    expect((await read('00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);
    expect((await read('not-a-uuid')).statusCode).toBe(404);
    expect((await act(doc.id, 'grant', { version: 1 }, who.officer)).json().error.code).toBe(
      'ACTION_NOT_ALLOWED',
    );
    expect((await act(doc.id, 'delete', { version: 1 }, who.officer)).statusCode).toBe(403);
    expect((await read(doc.id)).json()).toMatchObject({ version: 1, status: 'STORED' });
    expect(await history(doc.id)).toHaveLength(1);
    expect(
      (await api.call('PATCH', base, { token: who.stranger, body: {} }))
        .json()
        .items.map((i: { id: string }) => i.id),
    ).not.toContain(doc.id);
  });
});
