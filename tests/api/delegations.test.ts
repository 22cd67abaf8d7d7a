import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delegation, HolderDelegations } from '../../src/core/documents/delegation';
import type { DocumentView, HistoryEntry } from '../../src/core/documents/types';
import type { LibraryRow } from '../../src/core/dashboard/types';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { accountHolding, type TestAccount } from '../support/accounts';
import { databaseKinds } from '../support/databases';
import { payOnGateway } from '../support/gateway';
import { messagesAbout } from '../support/inbox';
import { applicationsThrough } from '../support/personas';
import { visaApplication } from '../support/visa-data';

/**
 * Delegated access (docs/delegation.md): a holder names a delegate by sign-in name or e-mail for
 * one application or all of them, with grants (fill, submit, pay, reply); the delegate reads the
 * application, finds it in their library and takes the granted actions for the holder, never
 * the declarations; history and notices say who acted for whom; revoking or expiry ends it.
 */
const TYPE = 'visa-application';
const BASE = `/api/evisa/${TYPE}`;
const ROLES = ['submit', 'read', 'update', 'pay', 'cancel'].map((r) => `${TYPE}-${r}`);

type Method = 'GET' | 'POST' | 'PATCH';
interface Problem {
  error: { code: string; message: string; fields?: Array<{ path: string; message: string }> };
}

describe.each(databaseKinds())('delegated access on %s', (kind) => {
  let api: ApiHarness;
  let holderAccount: TestAccount;
  let delegateAccount: TestAccount;
  let holder: string;
  let delegate: string;
  let stranger: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    holderAccount = await accountHolding(api, {
      login: 'hana.holder',
      firstName: 'Hana',
      lastName: 'Holder',
      roles: ROLES,
    });
    delegateAccount = await accountHolding(api, {
      login: 'dee.delegate',
      firstName: 'Dee',
      lastName: 'Delegate',
      email: 'Dee.Delegate@Example.org',
      roles: ROLES,
    });
    const groups = [...ROLES, 'view-profile'];
    holder = await api.tokenFor(groups, { sub: holderAccount.id, name: holderAccount.name });
    delegate = await api.tokenFor(groups, { sub: delegateAccount.id, name: delegateAccount.name });
    stranger = await api.tokenFor(ROLES, { sub: 'someone-else', name: 'Someone Else' });
  });
  afterAll(async () => {
    await api?.close();
  });

  const call = (method: Method, url: string, token: string, body?: unknown, lang = 'en') =>
    api.call(method, url, { token, body, headers: { 'accept-language': lang } });
  const ok = async <T>(method: Method, url: string, token: string, body?: unknown): Promise<T> => {
    const answer = await call(method, url, token, body);
    expect(answer.statusCode, answer.body).toBeLessThan(300);
    return answer.json() as T;
  };
  const problem = (answer: { json(): unknown }) => (answer.json() as Problem).error;
  const delegateTo = (body: Record<string, unknown>, token = holder) =>
    call('POST', `${BASE}/delegations`, token, body);
  const stored = () =>
    ok<DocumentView>('POST', BASE, holder, { data: visaApplication('VIS', 'VV30') });
  const act = (view: DocumentView, action: string, token: string, data?: unknown, lang = 'en') =>
    call(
      'POST',
      `${BASE}/${view.id}/actions/${action}`,
      token,
      { version: view.version, ...(data ? { data } : {}) },
      lang,
    );
  const read = (view: DocumentView, token = delegate) => call('GET', `${BASE}/${view.id}`, token);
  const library = async (token = delegate) =>
    (await ok<{ items: LibraryRow[] }>('PATCH', '/api/evisa/dashboard/library', token, {})).items;
  const historyOf = (view: DocumentView, token = holder) =>
    ok<HistoryEntry[]>('GET', `${BASE}/${view.id}/history`, token);
  const withContact = (view: DocumentView, telephone: string) => ({
    ...view.data,
    contact: { ...(view.data.contact as object), telephone },
  });

  it('lets a delegate named by sign-in name fill in one application for its holder, nothing more', async () => {
    const application = await stored();
    const made = await delegateTo({
      delegate: '  DEE.Delegate ',
      documentId: application.id,
      grants: ['fill'],
    });
    expect(made.statusCode, made.body).toBe(201);
    const delegation = made.json() as Delegation;
    // Without a last day, the longest the workflow allows (visa-application: 365 days).
    expect(delegation.until).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(delegation).toMatchObject({
      type: TYPE,
      documentId: application.id,
      delegate: 'dee.delegate',
      grants: ['fill'],
      revokedAt: null,
      state: 'active',
    });

    // The delegate reads it, is told whose it is and offered the granted actions only.
    const seen = await read(application);
    expect(seen.statusCode, seen.body).toBe(200);
    const view = seen.json() as DocumentView;
    expect(view.delegation).toEqual({
      holderName: 'Hana Holder',
      grants: ['fill'],
      holderOnly: ['/declarations', '/characterQuestions'],
    });
    expect(view.allowedActions).toEqual(['update']);
    expect((await call('GET', `${BASE}/${application.id}/versions`, delegate)).statusCode).toBe(
      200,
    );
    expect(await library()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: application.id, delegated: true, holderName: 'Hana Holder' }),
      ]),
    );
    // The holder's own library marks nothing as delegated.
    const own = (await library(holder)).find((row) => row.id === application.id);
    expect(own?.delegated).toBeUndefined();

    // A save is the holder's, written by the delegate on their behalf.
    const saved = await act(view, 'update', delegate, withContact(view, '+685 555 9999'));
    expect(saved.statusCode, saved.body).toBe(200);
    const after = saved.json() as DocumentView;
    expect(after.owner).toBe(holderAccount.id);
    expect(after.delegation?.holderName).toBe('Hana Holder');
    const line = (await historyOf(after)).at(-1);
    expect(line).toMatchObject({
      action: 'update',
      name: 'Dee Delegate',
      onBehalfOf: 'Hana Holder',
    });

    // Submitting is not granted: refused, in English and in French, and nothing changes.
    const submit = await act(after, 'submit', delegate, after.data);
    expect(submit.statusCode).toBe(403);
    expect(problem(submit)).toMatchObject({ code: 'DELEGATION_NOT_GRANTED' });
    expect(problem(submit).message).toContain('Hana Holder has not let you do this');
    const french = await act(after, 'submit', delegate, after.data, 'fr');
    expect(problem(french).message).toContain('Hana Holder ne vous a pas autorisé à le faire');
    // The declarations are the holder's alone.
    const declared = await act(after, 'update', delegate, {
      ...after.data,
      declarations: { accepted: false },
    });
    expect(declared.statusCode).toBe(403);
    expect(problem(declared)).toMatchObject({ code: 'HOLDER_ONLY' });
    // Named as the form names the section, not by its place in the data.
    expect(problem(declared).message).toContain('(Declaration)');
    const unchanged = (await read(after, holder)).json() as DocumentView;
    expect(unchanged.version).toBe(after.version);
    expect(unchanged.status).toBe('STORED');
  });

  it("answers the same for an unknown name, and keeps a holder's delegations from others", async () => {
    const application = await stored();
    const unknown = await delegateTo({ delegate: 'nobody.at.all', grants: ['fill'] });
    const known = await delegateTo({ delegate: 'dee.delegate', grants: ['pay'] });
    expect(unknown.statusCode).toBe(201);
    expect(known.statusCode).toBe(201);
    const shape = (answer: { json(): unknown }) => Object.keys(answer.json() as object).sort();
    expect(shape(unknown)).toEqual(shape(known));
    expect((unknown.json() as Delegation).state).toBe('active');

    // Refusals per field.
    const refused = await delegateTo({
      delegate: 'hana.holder',
      grants: ['fly'],
      until: '2001-01-01',
    });
    expect(refused.statusCode).toBe(400);
    expect(
      problem(refused)
        .fields?.map((f) => f.path)
        .sort(),
    ).toEqual(['/delegate', '/grants/0', '/until'].sort());
    const notMine = await delegateTo(
      { delegate: 'dee.delegate', documentId: application.id, grants: ['fill'] },
      stranger,
    );
    expect(notMine.statusCode).toBe(404);

    // Another user neither lists nor revokes them.
    const theirs = await ok<HolderDelegations>('GET', `${BASE}/delegations`, stranger);
    expect(theirs.items).toEqual([]);
    const id = (known.json() as Delegation).id;
    expect((await call('POST', `${BASE}/delegations/${id}/revoke`, stranger, {})).statusCode).toBe(
      404,
    );
    expect((await call('GET', `${BASE}/${application.id}/delegations`, stranger)).statusCode).toBe(
      404,
    );
    const mine = await ok<HolderDelegations>('GET', `${BASE}/delegations`, holder);
    expect(mine.grants.map((g) => g.id)).toEqual(['fill', 'submit', 'pay', 'reply']);
    expect(mine.maxDays).toBe(365);
    expect(mine.items.map((d) => d.id)).toContain(id);
    await ok('POST', `${BASE}/delegations/${id}/revoke`, holder, {});
    await ok('POST', `${BASE}/delegations/${(unknown.json() as Delegation).id}/revoke`, holder, {});
  });

  it('covers documents made after an "all" delegation by e-mail; a granted submit goes through once the holder declared', async () => {
    const made = await delegateTo({
      delegate: 'dee.delegate@example.org',
      grants: ['fill', 'submit'],
    });
    expect(made.statusCode, made.body).toBe(201);
    const all = made.json() as Delegation;
    expect(all.documentId).toBeNull();
    const application = await stored();
    const received = await ok<{ items: Array<{ id: string; holderName: string }> }>(
      'GET',
      '/api/evisa/delegations/received',
      delegate,
    );
    expect(received.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: all.id, holderName: 'Hana Holder' })]),
    );
    const covering = await ok<{ items: Delegation[] }>(
      'GET',
      `${BASE}/${application.id}/delegations`,
      holder,
    );
    expect(covering.items.map((d) => d.id)).toContain(all.id);

    // The holder answers the character questions, uploads and declares; the delegate submits.
    const apiOf = applicationsThrough(api);
    const file = await apiOf.uploadPdf(holder);
    const data = application.data as {
      characterQuestions: Array<Record<string, unknown>>;
      documents: Array<Record<string, unknown>>;
    };
    const declared = await act(application, 'update', holder, {
      ...application.data,
      characterQuestions: data.characterQuestions.map((q) => ({ ...q, answer: false })),
      documents: data.documents.map((d) => ({ ...d, file })),
      declarations: { accepted: true },
    });
    expect(declared.statusCode, declared.body).toBe(200);
    const ready = (await read(application)).json() as DocumentView;
    expect(ready.allowedActions.sort()).toEqual(['submit', 'update']);
    const submitted = await act(ready, 'submit', delegate, ready.data);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect((submitted.json() as DocumentView).status).toBe('SUBMITTED');
    expect((await historyOf(ready)).at(-1)).toMatchObject({
      action: 'submit',
      onBehalfOf: 'Hana Holder',
    });
    // Paying is not granted: not offered.
    expect(((await read(ready)).json() as DocumentView).allowedActions).toEqual([]);

    // Revoked: the next save is refused as ended, and the application leaves their library.
    await ok('POST', `${BASE}/delegations/${all.id}/revoke`, holder, {});
    const after = (await read(ready, holder)).json() as DocumentView;
    const ended = await act(after, 'cancel', delegate);
    expect(ended.statusCode).toBe(403);
    expect(problem(ended).code).toBe('DELEGATION_ENDED');
    expect((await read(ready)).statusCode).toBe(403);
    expect((await library()).map((row) => row.id)).not.toContain(application.id);
    // Someone never named learns nothing: 404.
    expect((await read(ready, stranger)).statusCode).toBe(404);
  });

  it('refuses a delegation past its last day', async () => {
    const application = await stored();
    const made = await delegateTo({
      delegate: 'dee.delegate',
      documentId: application.id,
      grants: ['fill'],
    });
    const delegation = made.json() as Delegation;
    expect((await read(application)).statusCode).toBe(200);
    // Its last day was yesterday (set in the store: no test waits for a day to pass).
    await api.tables
      .updateTable('document_delegation')
      .set({ until: '2020-01-01' })
      .where('id', '=', delegation.id)
      .execute();
    const refused = await act(application, 'update', delegate, application.data);
    expect(refused.statusCode).toBe(403);
    expect(problem(refused).code).toBe('DELEGATION_ENDED');
    const listed = await ok<HolderDelegations>('GET', `${BASE}/delegations`, holder);
    expect(listed.items.find((d) => d.id === delegation.id)?.state).toBe('expired');
    expect((await library()).map((row) => row.id)).not.toContain(application.id);
  });

  it("sends the holder's notices to their delegates too", async () => {
    const application = await stored();
    const apiOf = applicationsThrough(api);
    const file = await apiOf.uploadPdf(holder);
    const data = application.data as {
      characterQuestions: Array<Record<string, unknown>>;
      documents: Array<Record<string, unknown>>;
    };
    const submitted = (
      await act(application, 'submit', holder, {
        ...application.data,
        characterQuestions: data.characterQuestions.map((q) => ({ ...q, answer: false })),
        documents: data.documents.map((d) => ({ ...d, file })),
      })
    ).json() as DocumentView;
    const made = await delegateTo({
      delegate: 'dee.delegate',
      documentId: application.id,
      grants: ['reply'],
    });
    expect(made.statusCode).toBe(201);
    await ok('POST', `${BASE}/${submitted.id}/actions/initiate`, holder, {
      version: submitted.version,
      data: { termsAccepted: true },
    });
    await payOnGateway(api, TYPE, submitted.id, holder, 'Hana Holder');
    const paid = (await read(submitted, holder)).json() as DocumentView;
    expect(paid.status).toBe('PAID FOR VERIFICATION');
    const withdrawn = await act(paid, 'withdraw', holder);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const owners = (await messagesAbout(api.server.database.db, application.id)).map(
      (m) => m.owner,
    );
    expect(owners).toContain(holderAccount.id);
    expect(owners).toContain(delegateAccount.id);
  });
});
