import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';

/** A path of the OpenAPI document with every parameter filled by `value`. */
const fill = (path: string, value: string) => path.replace(/\{[^}]+\}/g, value);

/** Malformed bodies every endpoint must refuse (or ignore) without a 5xx. */
const BODIES: Array<[string, string, string]> = [
  ['invalid JSON', 'application/json', '{"a":'],
  ['a JSON string', 'application/json', '"text"'],
  ['null', 'application/json', 'null'],
  ['an array', 'application/json', '[1,2,3]'],
  ['prototype keys', 'application/json', '{"__proto__":{"x":1},"constructor":{"prototype":{}}}'],
  [
    'an action named after a property of every object',
    'application/json',
    '{"action":"constructor","version":1}',
  ],
  [
    'wrong types',
    'application/json',
    '{"data":7,"version":"x","action":[],"page":{},"filter":"a"}',
  ],
  [
    'extreme numbers',
    'application/json',
    '{"version":1e308,"page":-9007199254740993,"itemsPerPage":1e400}',
  ],
  ['deep nesting', 'application/json', `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`],
  ['odd unicode', 'application/json', '{"action":"\\u0000\\ud800","data":{"x":"\\u202e\\ufeff"}}'],
  ['a huge body', 'application/json', `{"data":"${'x'.repeat(2_000_000)}"}`],
  ['form data', 'application/x-www-form-urlencoded', 'a=1&b=%%%'],
  ['plain text', 'text/plain', 'hello'],
];
/**
 * Whether a request may write: not a read (GET), a search (PATCH, the protocol's search) or the
 * derived values of a form being filled (`/derive`, which stores nothing).
 */
const writes = (verb: string, path: string) =>
  verb !== 'GET' && verb !== 'PATCH' && !path.endsWith('/derive');

/** Odd query strings, added to each request without a body. */
const QUERY =
  '?version=9007199254740992&page=1e400&itemsPerPage=-1&__proto__[x]=1&search=%00&recipient=%FF';
/** Malformed values in place of each path parameter. */
const PARAMS = [
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  'constructor',
  '-1',
  '9007199254740992',
  '%F0%9F%92%A9',
  'x'.repeat(300),
];

/**
 * Every endpoint the OpenAPI document lists, each method, given malformed requests:
 * none answers 5xx, the server stays healthy, and no refused request adds or changes a row.
 */
describe('the API under malformed requests', () => {
  let api: ApiHarness;
  let token: string;
  beforeAll(async () => {
    api = await startApiServer('pglite', { demoData: true });
    // Every role the definitions name, so requests get past the role checks to the handlers.
    const doc = (await api.call('GET', '/api/openapi.json')).json();
    const roles = new Set<string>(
      JSON.stringify(doc).match(
        /[a-z]+(-[a-z]+)+-(search|read|create|update|delete|manage|submit|review|security|pay)/g,
      ) ?? [],
    );
    token = await api.tokenFor([...roles]);
  }, 300_000);
  afterAll(async () => api?.close());

  /** The rows of the tables requests write, and the documents' versions, as one picture. */
  const snapshot = async () => {
    const db = api.server.database.db;
    const count = async (table: string) =>
      Number(
        (
          await db
            .selectFrom(table as never)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const versions = await db
      .selectFrom('document')
      .select((eb) => eb.fn.sum<string>('version').as('v'))
      .executeTakeFirstOrThrow();
    return {
      documents: await count('document'),
      versions: Number(versions.v ?? 0),
      entries: await count('catalog_entry'),
      media: await count('media'),
      outbox: await count('outbox'),
      challenges: await count('challenge'),
    };
  };

  it('answers no 5xx to any endpoint', async () => {
    const doc = (await api.call('GET', '/api/openapi.json')).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const failures: string[] = [];
    // Writes that went through: none should, every request here is malformed.
    const accepted: string[] = [];
    const before = await snapshot();
    // The endpoints the document leaves out (a protocol or a stand-in of their own) are
    // listed here, so every endpoint of the server is sent the same.
    const hidden: Record<string, Record<string, unknown>> = {
      '/api/outbox': { get: {} },
      '/sandbox-gateway/pay/{session}': { get: {}, post: {} },
      '/sandbox-gateway/pay/{session}/cancel': { post: {} },
      '/realms/portal/login-actions/{uid}': { get: {}, post: {} },
      '/realms/portal/login-actions/{uid}/reset': { get: {}, post: {} },
    };
    for (const [path, methods] of Object.entries({ ...doc.paths, ...hidden })) {
      for (const method of Object.keys(methods)) {
        const verb = method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
        const urls = [...new Set(PARAMS.map((p) => fill(path, p)))];
        for (const url of [...urls, ...urls.map((u) => `${u}${QUERY}`)]) {
          const response = await api.app.inject({
            method: verb,
            url,
            headers: { authorization: `Bearer ${token}` },
          });
          if (response.statusCode >= 500) failures.push(`${verb} ${url} ${response.statusCode}`);
          if (writes(verb, path) && response.statusCode < 300) accepted.push(`${verb} ${url}`);
        }
        if (verb === 'GET' || verb === 'DELETE') continue;
        for (const [what, type, payload] of BODIES) {
          const url = fill(path, '00000000-0000-4000-8000-000000000000');
          const response = await api.app.inject({
            method: verb,
            url,
            headers: { authorization: `Bearer ${token}`, 'content-type': type },
            payload,
          });
          if (response.statusCode >= 500)
            failures.push(`${verb} ${path} ${what} ${response.statusCode}`);
          if (writes(verb, path) && response.statusCode < 300)
            accepted.push(`${verb} ${path} ${what}`);
        }
      }
    }
    // The identity server's own endpoints, outside the OpenAPI document, signed out.
    const realm = '/realms/portal/protocol/openid-connect';
    for (const endpoint of [
      'token',
      'auth',
      'userinfo',
      'logout',
      'revoke',
      'token/introspect',
      'certs',
    ]) {
      for (const [what, type, payload] of BODIES) {
        const response = await api.app.inject({
          method: 'POST',
          url: `${realm}/${endpoint}${QUERY}`,
          headers: { 'content-type': type },
          payload,
        });
        if (response.statusCode >= 500)
          failures.push(`POST ${realm}/${endpoint} ${what} ${response.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    expect(accepted).toEqual([]);
    // Nothing a refused request sent was kept, and the server still answers.
    expect(await snapshot()).toEqual(before);
    expect((await api.call('GET', '/api/health')).statusCode).toBe(200);
  }, 600_000);
});
