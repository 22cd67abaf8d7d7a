import { unzipSync, strFromU8 } from 'fflate';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { CodeFlow } from '../support/identity-client';
import { freePort } from '../support/identity-server';
import { multipartFile } from '../support/multipart';
import { visaApplication } from '../support/visa-data';

const VISAS = '/api/evisa/visa-application';
const ACCOUNTS = '/api/connectid/account';
const PDF = Buffer.from('%PDF-1.4\n% my own scan\n%%EOF\n');

/**
 * A person's own data (docs/identity.md, "My data and closing an account"): the archive holds
 * their account, their documents with versions and history, their messages and their uploads,
 * and nothing of anyone else's; closing the account is a request the identity administrators
 * decide, and once closed its sign-in is refused and its tokens stop at once. Real sign-ins
 * through the built-in identity server, as in production.
 */
describe.each(databaseKinds())('my data and closing an account on %s', (kind) => {
  let api: ApiHarness;
  let publicUrl: string;
  let applicant: string;
  let applicantId: string;
  let admin: string;
  let sponsor: string;

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    api = await startApiServer(kind, {
      publicUrl,
      demoData: true,
      auth: { issuer: `${publicUrl}/realms/portal`, audience: 'portal' },
    });
    await api.server.listen({ port, host: '127.0.0.1' });
    const signIn = async (login: string, password: string) =>
      (await new CodeFlow(publicUrl).signIn(login, password)).access_token;
    applicant = await signIn('applicant', 'Palm-Breeze-2041');
    applicantId = decodeJwt(applicant).sub as string;
    admin = await signIn('idadmin', 'Key-Keeper-8105!');
    sponsor = await signIn('sponsor', 'Coral-Reef-3187');
  }, 300_000);
  afterAll(async () => api?.close());

  const ok = async (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
    const response = await api.call(method, url, { token, body });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as { id: string; version: number; status: string; number?: string };
  };
  const upload = async (token: string) => {
    const { body: payload, contentType } = multipartFile('scan.pdf', 'application/pdf', PDF);
    const response = await api.app.inject({
      method: 'POST',
      url: '/api/media',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string };
  };
  const accountAction = async (token: string, action: string, notes?: string) => {
    const account = await ok('GET', `${ACCOUNTS}/${applicantId}`, admin);
    return api.call('POST', `${ACCOUNTS}/${applicantId}/actions/${action}`, {
      token,
      body: { version: account.version, ...(notes ? { notes } : {}) },
    });
  };
  const auditLines = async (action: string) => {
    await api.server.audit.flush();
    return api.tables
      .selectFrom('audit_event')
      .selectAll()
      .where('action', '=', action)
      .where('target', '=', applicantId)
      .execute();
  };

  it('archives the person’s account, documents, messages and uploads, and no one else’s', async () => {
    const mine = await upload(applicant);
    const theirs = await upload(sponsor);
    const stored = await ok('POST', VISAS, applicant, { data: visaApplication('VIS', 'VV30') });
    const changed = visaApplication('VIS', 'VV30');
    changed.contact.address.addressLine1 = '2 Harbour Road';
    await ok('POST', `${VISAS}/${stored.id}/actions/update`, applicant, {
      version: stored.version,
      data: changed,
    });
    // A closure asked for and refused: two history lines, and a notice in the inbox.
    expect((await accountAction(applicant, 'request-closure', 'Moving away')).statusCode).toBe(200);
    const kept = await accountAction(admin, 'keep-open', 'Your visa is still being decided');
    expect(kept.statusCode, kept.body).toBe(200);

    const response = await api.call('GET', '/api/account/archive', { token: applicant });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="my-data-/);
    const files = unzipSync(new Uint8Array(response.rawPayload));
    const text = (name: string) => strFromU8(files[name]!);
    const names = Object.keys(files);

    expect(text('README.txt')).toContain('YOUR DATA');
    expect(text('README.txt')).toContain('VOS DONNÉES');
    const account = JSON.parse(text('account.json'));
    expect(account.account.document.id).toBe(applicantId);
    const lines = account.account.history.map((line: { action: string }) => line.action);
    expect(lines).toEqual(expect.arrayContaining(['request-closure', 'keep-open']));
    expect(account.uploads.map((u: { id: string }) => u.id)).toEqual([mine.id]);

    const visaFile = names.find((n) => n.startsWith('documents/visa-application/'));
    expect(visaFile).toBeDefined();
    const visa = JSON.parse(text(visaFile!));
    expect(visa.document.id).toBe(stored.id);
    expect(visa.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(visa.versions[1].data.contact.address.addressLine1).toBe('2 Harbour Road');
    expect(visa.history.length).toBeGreaterThanOrEqual(2);

    const messages = JSON.parse(text('messages.json')) as Array<{ document: { owner: string } }>;
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(messages)).toContain('Your visa is still being decided');

    expect(Buffer.from(files[`uploads/${mine.id}-scan.pdf`]!)).toEqual(PDF);
    // Nothing of another person's: their upload, their documents.
    expect(names.some((n) => n.includes(theirs.id))).toBe(false);
    for (const name of names.filter((n) => n.startsWith('documents/')))
      expect(JSON.parse(text(name)).document.owner).toBe(applicantId);
    for (const message of messages) expect(message.document.owner).toBe(applicantId);
    const other = await api.call('GET', '/api/account/archive', { token: sponsor });
    const otherNames = Object.keys(unzipSync(new Uint8Array(other.rawPayload)));
    expect(otherNames).toContain(`uploads/${theirs.id}-scan.pdf`);
    expect(otherNames.some((n) => n.includes(mine.id) || n.includes(stored.id))).toBe(false);

    const [line] = await auditLines('archive.download');
    expect(line).toMatchObject({
      kind: 'export',
      actor: applicantId,
      route: 'GET /api/account/archive',
    });
    expect(line?.detail).toMatchObject({ documents: 1, uploads: 1 });
    // Signed out: no archive.
    expect((await api.call('GET', '/api/account/archive')).statusCode).toBe(401);
  });

  it('closes the account on request: sign-in refused and its token stops at once', async () => {
    // Only the holder asks, and with a reason.
    expect((await accountAction(sponsor, 'request-closure', 'Not mine')).statusCode).toBe(404);
    expect((await accountAction(applicant, 'request-closure')).statusCode).toBe(400);
    const asked = await accountAction(applicant, 'request-closure', 'I no longer need it');
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().status).toBe('CLOSURE REQUESTED');
    // Still signed in while the request waits.
    expect((await api.call('GET', '/api/account/archive', { token: applicant })).statusCode).toBe(
      200,
    );
    // Only an identity administrator closes it.
    expect((await accountAction(applicant, 'close')).statusCode).toBe(403);
    const closed = await accountAction(admin, 'close');
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().status).toBe('CLOSED');

    const refused = await api.call('GET', `${ACCOUNTS}/${applicantId}`, { token: applicant });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('INVALID_TOKEN');
    const flow = new CodeFlow(publicUrl);
    await flow.start();
    await flow.submit({ username: 'applicant', password: 'Palm-Breeze-2041' });
    expect(flow.callback).toBeUndefined();

    // When it closed is the close line of its history: the retention clock starts there.
    const history = (await ok(
      'GET',
      `${ACCOUNTS}/${applicantId}/history`,
      admin,
    )) as unknown as Array<{ action: string; at: string }>;
    expect(history.at(-1)).toMatchObject({ action: 'close' });
    expect((await auditLines('account.closure-requested')).length).toBe(2);
    const [closedLine] = await auditLines('account.closed');
    expect(closedLine).toMatchObject({ kind: 'account', document_id: applicantId });
    expect(closedLine?.detail).toMatchObject({ sessionsEnded: 1 });
  });
});
