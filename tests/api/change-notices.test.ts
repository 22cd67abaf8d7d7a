import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import { buildServer, type PortalServer } from '../../src/server/process';
import type { ChangeNotices } from '../../src/server/db/change-notices';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { visaApplication } from '../support/visa-data';

/**
 * Server processes keep catalogues and ended sessions in memory (catalog/cache.ts,
 * identity/revoked-sessions.ts); what they keep must never outlive a change. A change made
 * through a process is seen by its next request; one made anywhere else (another process, an
 * administrator in psql) as soon as the database's change notice arrives, which these tests
 * wait for rather than for some time. PGlite delivers its notices before the change returns.
 */

/** Listens on `channel` from now on; `arrived` resolves when `payload` is delivered on it. */
async function noticeOf(
  notices: ChangeNotices,
  channel: string,
  payload: string,
): Promise<{ arrived: Promise<void> }> {
  let heard = () => {};
  const arrived = new Promise<void>((resolve) => (heard = resolve));
  const stop = await notices.on(channel, (received) => {
    if (received === payload) heard();
  });
  return { arrived: arrived.finally(stop) };
}

type Call = (
  method: 'GET' | 'PUT' | 'POST' | 'PATCH',
  url: string,
  token: string,
  body?: unknown,
) => Promise<{ statusCode: number; body: string; json(): unknown }>;

const inject =
  (server: () => PortalServer): Call =>
  (method, url, token, body) =>
    server().app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });

/** The names a form's country select offers for what was typed. */
async function offered(call: Call, token: string, search: string): Promise<string[]> {
  const response = await call('GET', `/api/catalog/v1/country/options?search=${search}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { items: Array<{ name: string }> }).items.map((o) => o.name);
}

/** Renames a catalogue entry through the catalogue API, at the version it is at. */
async function rename(call: Call, token: string, catalog: string, key: string, name: string) {
  const found = await call('PATCH', `/api/catalog/v1/${catalog}`, token, {
    filter: [{ field: 'code', criterion: 'equals', value: key }],
  });
  const [entry] = (found.json() as { items: Array<{ id: string; version: number; data: object }> })
    .items;
  if (!entry) throw new Error(`no ${catalog} entry ${key}`);
  const edited = await call('PUT', `/api/catalog/v1/${catalog}/${entry.id}`, token, {
    version: entry.version,
    data: { ...entry.data, name },
  });
  expect(edited.statusCode, edited.body).toBe(200);
}

describe.each(databaseKinds())('what the server keeps in memory, on %s', (kind) => {
  let api: ApiHarness;
  let call: Call;
  let applicant: string;
  let manager: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    call = inject(() => api.server);
    applicant = await api.tokenFor(['visa-application-submit', 'visa-application-update'], {
      sub: 'applicant-1',
    });
    manager = await api.tokenFor(['catalog-manage', 'asypx-catalog-manage']);
  });
  afterAll(async () => api?.close());

  it('offers a catalogue entry changed through the API at the next options request', async () => {
    expect(await offered(call, applicant, 'ws')).toEqual(['Samoa']);
    await rename(call, manager, 'country', 'WS', 'Independent State of Samoa');
    expect(await offered(call, applicant, 'ws')).toEqual(['Independent State of Samoa']);
  });

  it('offers an entry changed by hand in the database once its notice arrives', async () => {
    expect(await offered(call, applicant, 'tonga')).toEqual(['Tonga']);
    const notice = await noticeOf(api.server.database.notices, 'catalog_entry', 'country');
    await api.server.database.db
      .updateTable('catalog_entry')
      .set({ data: sql`data || '{"name": "Kingdom of Tonga"}'::jsonb` })
      .where('catalog', '=', 'country')
      .where('entry_key', '=', 'TO')
      .execute();
    await notice.arrived;
    expect(await offered(call, applicant, 'tonga')).toEqual(['Kingdom of Tonga']);
  });

  it('freezes the fees a fee catalogue holds now, not those it held when first read', async () => {
    const store = async () => {
      const response = await call('POST', '/api/evisa/visa-application', applicant, {
        action: 'store',
        data: visaApplication('VIS', 'VV30'),
      });
      expect(response.statusCode, response.body).toBe(201);
      const { fees } = (response.json() as { data: { fees: { lines: object[] } } }).data;
      return fees.lines;
    };
    expect(await store()).toContainEqual(expect.objectContaining({ code: 'APP', amount: '20.00' }));
    const found = await call('PATCH', '/api/catalog/v1/document-fee', manager, {
      filter: [
        { field: 'documentCode', criterion: 'equals', value: 'VIS' },
        { field: 'code', criterion: 'equals', value: 'APP' },
      ],
    });
    const [fee] = (found.json() as { items: Array<{ id: string; version: number; data: object }> })
      .items;
    const edited = await call('PUT', `/api/catalog/v1/document-fee/${fee!.id}`, manager, {
      version: fee!.version,
      data: { ...fee!.data, amount: 25 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await store()).toContainEqual(expect.objectContaining({ code: 'APP', amount: '25.00' }));
  });

  it('refuses a token of a session ended elsewhere as soon as its notice arrives', async () => {
    const token = await api.tokenFor(['visa-application-submit'], { sid: `sid-${kind}` });
    expect((await call('GET', '/api/catalog/v1/country/options', token)).statusCode).toBe(200);
    // What the identity server of another process writes as the session signs out.
    const notice = await noticeOf(api.server.database.notices, 'revoked_session', `sid-${kind}`);
    await sql`insert into revoked_session (sid, expires_at)
      values (${`sid-${kind}`}, now() + interval '6 minutes')`.execute(api.server.database.db);
    await notice.arrived;
    const refused = await call('GET', '/api/catalog/v1/country/options', token);
    expect(refused.statusCode).toBe(401);
    expect((refused.json() as { error: { code: string } }).error.code).toBe('INVALID_TOKEN');
  });
});

describe.runIf(databaseKinds().includes('postgres'))('two servers on one PostgreSQL', () => {
  let api: ApiHarness;
  let other: PortalServer;
  let a: Call;
  let b: Call;
  let applicant: string;
  let manager: string;

  beforeAll(async () => {
    api = await startApiServer('postgres');
    // A second server on the same schema, as a second process would be.
    other = await buildServer(api.config, serverModules, { jwks: api.issuer.jwks, logger: false });
    a = inject(() => api.server);
    b = inject(() => other);
    applicant = await api.tokenFor(['visa-application-submit'], { sid: 'sid-shared' });
    manager = await api.tokenFor(['catalog-manage']);
  });
  afterAll(async () => {
    await other?.close();
    await api?.close();
  });

  it('offers on one what was changed through the other, once the notice arrives', async () => {
    expect(await offered(b, applicant, 'fiji')).toEqual(['Fiji']);
    const notice = await noticeOf(other.database.notices, 'catalog_entry', 'country');
    await rename(a, manager, 'country', 'FJ', 'Republic of Fiji');
    await notice.arrived;
    expect(await offered(b, applicant, 'fiji')).toEqual(['Republic of Fiji']);
  });

  it('refuses on one the token of a session ended through the other', async () => {
    const token = await api.tokenFor(['visa-application-submit'], { sid: 'sid-ended' });
    expect((await b('GET', '/api/catalog/v1/country/options', token)).statusCode).toBe(200);
    const notice = await noticeOf(other.database.notices, 'revoked_session', 'sid-ended');
    await sql`insert into revoked_session (sid, expires_at)
      values ('sid-ended', now() + interval '6 minutes')`.execute(api.server.database.db);
    await notice.arrived;
    expect((await b('GET', '/api/catalog/v1/country/options', token)).statusCode).toBe(401);
    // Another session goes on.
    expect((await b('GET', '/api/catalog/v1/country/options', applicant)).statusCode).toBe(200);
  });

  it('forgets what it kept when its listening connection was lost, as notices were missed', async () => {
    expect(await offered(b, applicant, 'nauru')).toEqual(['Nauru']);
    const resumed = new Promise<void>((resolve) => other.database.notices.onResume(resolve));
    const admin = new pg.Client({ connectionString: api.database.databaseUrl });
    await admin.connect();
    try {
      // Every listening connection of this schema is cut, and a change made meanwhile.
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`,
        [`notices ${api.database.schema}`],
      );
      await admin.query(
        `update "${api.database.schema}".catalog_entry
           set data = data || '{"name": "Republic of Nauru"}'::jsonb
         where catalog = 'country' and entry_key = 'NR'`,
      );
    } finally {
      await admin.end();
    }
    await resumed;
    expect(await offered(b, applicant, 'nauru')).toEqual(['Republic of Nauru']);
  });
});
