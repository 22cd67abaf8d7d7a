import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentAccountDirectory } from '../../src/modules/connectid/server/directory';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { CodeFlow } from '../support/identity-client';
import { freePort } from '../support/identity-server';

const ACCOUNTS = '/api/connectid/account';

/** A service account as an identity administrator creates it (user type SERVICE). */
const serviceAccount = (login: string) => ({
  identity: { loginIdentifier: login, firstName: 'Border', lastName: 'Sync' },
  contact: { emailAddress: `${login}@systems.example`, primaryMobileNo: '+685 7219901' },
  organisation: { userType: 'SERVICE', serviceAccountName: 'Border Control Sync' },
  access: { userGroup: 'OFFICERS', accessUnits: ['VERIFICATION'], activationStatus: 'active' },
});

/**
 * A service account's API credentials (specification 001, the account's `token`): an identity
 * administrator issues them on the account, the secret is shown once and kept only hashed; the
 * service trades them at the identity server's token endpoint (client-credentials grant) for
 * an access token that the API takes as the account, with the account's roles; revoking them
 * ends the grant. The server trusts only its own identity server here, as in production.
 */
describe.each(databaseKinds())('service account API credentials on %s', (kind) => {
  let api: ApiHarness;
  let publicUrl: string;
  let admin: string;
  let adminName: string;
  let service: { id: string };

  const tokenRequest = (clientId: string, secret: string) =>
    fetch(`${publicUrl}/realms/portal/protocol/openid-connect/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    api = await startApiServer(kind, {
      publicUrl,
      demoData: true,
      auth: { issuer: `${publicUrl}/realms/portal`, audience: 'portal' },
    });
    await api.server.listen({ port, host: '127.0.0.1' });
    admin = (await new CodeFlow(publicUrl).signIn('idadmin', 'Key-Keeper-8105!')).access_token;
    adminName = String(decodeJwt(admin).name);
    const created = await api.call('POST', ACCOUNTS, {
      token: admin,
      body: { action: 'create', data: serviceAccount('border-sync') },
    });
    expect(created.statusCode, created.body).toBe(201);
    service = created.json();
  }, 300_000);
  afterAll(async () => api?.close());

  it('issues credentials once, trades them for a token the API takes as the account', async () => {
    const base = `${ACCOUNTS}/${service.id}/api-credentials`;
    const before = await api.call('GET', base, { token: admin });
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toMatchObject({ service: true, active: false, issuedAt: null });

    const issued = await api.call('POST', base, { token: admin });
    expect(issued.statusCode, issued.body).toBe(201);
    expect(issued.headers['cache-control']).toBe('no-store');
    const { clientId, clientSecret, tokenUrl } = issued.json();
    expect(clientId).toBe(service.id);
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokenUrl).toBe(`${publicUrl}/realms/portal/protocol/openid-connect/token`);

    // Shown once: the status never carries it, and the database holds only a hash of it.
    const after = await api.call('GET', base, { token: admin });
    expect(after.json()).toMatchObject({ active: true, clientId });
    expect(after.body).not.toContain(clientSecret);
    const row = await api.server.database.db
      .selectFrom('service_credential' as never)
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(clientSecret);
    expect((row as { secret_hash: string }).secret_hash).toMatch(/^\$argon2id\$/);

    const granted = await tokenRequest(clientId, clientSecret);
    expect(granted.status, await granted.clone().text()).toBe(200);
    const { access_token: token, refresh_token: refresh } = (await granted.json()) as {
      access_token: string;
      refresh_token?: string;
    };
    expect(refresh).toBeUndefined();
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: service.id,
      aud: 'portal',
      preferred_username: 'border-sync',
      name: 'Border Control Sync',
      user_type: 'SERVICE',
    });
    // The roles of its group and access unit, as a person's token carries them.
    expect(claims.groups).toEqual(expect.arrayContaining(['visa-application-search']));
    const searchWith = (bearer: string) =>
      api.call('PATCH', '/api/evisa/visa-application', {
        token: bearer,
        body: { page: 1, itemsPerPage: 5 },
      });
    const search = await searchWith(token);
    expect(search.statusCode, search.body).toBe(200);

    // A wrong secret, or another client's id, gets nothing.
    expect((await tokenRequest(clientId, `${clientSecret}x`)).status).toBe(401);
    expect((await tokenRequest('portal', clientSecret)).status).toBe(401);

    // Issued again: the earlier secret stops working, and so does the token it was traded
    // for, at once rather than at its expiry.
    const again = (await api.call('POST', base, { token: admin })).json();
    expect(again.clientSecret).not.toBe(clientSecret);
    expect((await tokenRequest(clientId, clientSecret)).status).toBe(401);
    expect((await searchWith(token)).statusCode).toBe(401);
    const current = (await tokenRequest(clientId, again.clientSecret)) as Response;
    expect(current.status).toBe(200);
    const live = ((await current.json()) as { access_token: string }).access_token;
    expect((await searchWith(live)).statusCode).toBe(200);

    // Revoked: a token issued just before answers 401 right after, as after signing out.
    const revoked = await api.call('DELETE', base, { token: admin });
    expect(revoked.statusCode).toBe(204);
    expect((await searchWith(live)).statusCode).toBe(401);
    expect((await tokenRequest(clientId, again.clientSecret)).status).toBe(401);
    expect((await api.call('GET', base, { token: admin })).json()).toMatchObject({
      active: false,
    });
    const none = await api.call('DELETE', base, { token: admin, headers: { locale: 'fr' } });
    expect(none.statusCode).toBe(404);
    expect(none.json().error.message).toBe('Ce compte n’a pas d’identifiants d’API actifs');

    // Each issue and the revocation are lines of the account's history, by the administrator.
    const history = (
      await api.call('GET', `${ACCOUNTS}/${service.id}/history`, { token: admin })
    ).json() as Array<{ action: string; name: string }>;
    expect(history.map((line) => line.action)).toEqual([
      'create',
      'api-credentials-issued',
      'api-credentials-issued',
      'api-credentials-revoked',
    ]);
    expect(history.at(-1)?.name).toBe(adminName);
  });

  it('refuses credentials to a person, and to anyone without the security role', async () => {
    const directory = new DocumentAccountDirectory(api.server.database.db, api.server.definitions);
    const applicant = await directory.findByLogin('applicant');
    expect(applicant?.service).toBe(false);
    const refused = await api.call('POST', `${ACCOUNTS}/${applicant?.id}/api-credentials`, {
      token: admin,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('applicant');

    const person = (await new CodeFlow(publicUrl).signIn('applicant', 'Palm-Breeze-2041'))
      .access_token;
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const answer = await api.call(method, `${ACCOUNTS}/${service.id}/api-credentials`, {
        token: person,
      });
      expect(answer.statusCode).toBe(403);
    }
    expect((await api.call('GET', `${ACCOUNTS}/${service.id}/api-credentials`)).statusCode).toBe(
      401,
    );
  });

  it('gives no token once the service account is deactivated', async () => {
    const base = `${ACCOUNTS}/${service.id}`;
    const { clientSecret } = (
      await api.call('POST', `${base}/api-credentials`, { token: admin })
    ).json();
    expect((await tokenRequest(service.id, clientSecret)).status).toBe(200);
    const current = (await api.call('GET', base, { token: admin })).json();
    const data = structuredClone(current.data);
    data.access.activationStatus = 'inactive';
    const updated = await api.call('POST', `${base}/actions/update`, {
      token: admin,
      body: { version: current.version, data },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await tokenRequest(service.id, clientSecret)).status).toBe(401);
    expect(
      (await api.call('GET', `${base}/api-credentials`, { token: admin })).json(),
    ).toMatchObject({ service: false, active: true });
  });
});
