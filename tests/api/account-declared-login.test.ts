import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentAccountDirectory } from '../../src/modules/connectid/server/directory';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { copyDefinitions } from '../support/definitions-dir';
import { CodeFlow } from '../support/identity-client';
import * as declaredKeyIndexes from '../../src/server/db/migrations/0011_declared_key_indexes';
import { freePort } from '../support/identity-server';

/**
 * The account's login is whatever field its workflow declares as `key`, not a field the code
 * knows: with the definitions' `identity.loginIdentifier` renamed `identity.signInName` (schema,
 * workflow, labels), an account is created, kept unique, found and signed in by the new field.
 */
const FILES = [
  'schemas/account.schema.json',
  'workflows/account.json',
  'translations/en/account.json',
  'translations/fr/account.json',
];

describe.each(databaseKinds())('an account whose login field is renamed (%s)', (kind) => {
  let api: ApiHarness;
  let publicUrl: string;
  let removeDefinitions: () => Promise<void>;
  let admin: string;
  const base = '/api/connectid/account';

  beforeAll(async () => {
    const copy = await copyDefinitions();
    removeDefinitions = copy.remove;
    for (const file of FILES) {
      const text = await fs.readFile(path.join(copy.dir, file), 'utf8');
      await copy.write(file, text.replaceAll('loginIdentifier', 'signInName'));
    }
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    // No demo personas: their data (seeds/connectid.json) names the project's login field.
    api = await startApiServer(kind, { publicUrl, definitionsDir: copy.dir, demoData: false });
    await api.server.listen({ port, host: '127.0.0.1' });
    admin = await api.issuer.token({
      sub: 'admin-1',
      groups: ['search', 'create', 'read', 'security'].map((s) => `connectid-account-${s}`),
    });
  }, 300_000);
  afterAll(async () => {
    await api?.close();
    await removeDefinitions?.();
  });

  const data = (login: string) => ({
    identity: { signInName: login, firstName: 'Rena', lastName: 'Med' },
    contact: { emailAddress: 'rena@example.org', primaryMobileNo: '+685 7210009' },
    organisation: { userType: 'INDIVIDUAL' },
    access: { userGroup: 'PUBLIC', accessUnits: [] },
  });

  it('creates, keeps unique, finds and signs in an account by the declared field', async () => {
    const created = await api.call('POST', base, {
      token: admin,
      body: { action: 'create', data: data('rena.med') },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect(created.json().owner).toBe(id);

    const twin = await api.call('POST', base, {
      token: admin,
      body: { action: 'create', data: data('rena.med') },
    });
    expect(twin.statusCode).toBe(400);
    expect(twin.json().error.fields).toContainEqual(
      expect.objectContaining({ path: '/identity/signInName', rule: 'unique' }),
    );

    const directory = new DocumentAccountDirectory(api.server.database.db, api.server.definitions);
    expect(await directory.findByLogin('Rena.Med')).toMatchObject({
      id,
      loginIdentifier: 'rena.med',
      name: 'Rena Med',
      email: 'rena@example.org',
      canSignIn: true,
    });
    // The key's index is built from the declaration, on the renamed field.
    const indexes = await sql<{ indexdef: string }>`select indexdef from pg_indexes
      where schemaname = current_schema() and indexname like 'document\\_key\\_account\\_%'`.execute(
      api.server.database.db,
    );
    expect(indexes.rows.map((r) => r.indexdef)).toEqual([
      expect.stringMatching(/UNIQUE INDEX .*lower\(\(data #>> '\{identity,signInName\}'/),
    ]);

    const password = await api.call('POST', `${base}/${id}/password`, {
      token: admin,
      body: { password: 'Reef-Lantern-5083', temporary: false },
    });
    expect(password.statusCode, password.body).toBe(204);
    const flow = new CodeFlow(publicUrl);
    await flow.start();
    await flow.submit({ username: 'RENA.MED', password: 'Reef-Lantern-5083' });
    expect(flow.callback?.get('code'), flow.page).toBeTruthy();
    const tokens = await flow.exchange();
    expect(tokens.status).toBe(200);
    expect(decodeJwt(tokens.body.access_token).sub).toBe(id);
  });

  it('drops the key indexes migration 0004 once wrote out, on a database migrated before', async () => {
    const db = api.server.database.db;
    await sql`create index document_group_code on document ((data #>> '{group,code}'))
      where type = 'user-group'`.execute(db);
    await declaredKeyIndexes.up(db as never);
    const left = await sql<{ n: number }>`select count(*)::int as n from pg_indexes
      where schemaname = current_schema() and indexname = 'document_group_code'`.execute(db);
    expect(left.rows[0]!.n).toBe(0);
  });
});
