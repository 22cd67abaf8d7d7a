import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { allTables } from '../support/all-tables';

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

/** An OpenAPI schema, as far as the samples below read it. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema | Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}
interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/**
 * A value of `schema` with every property it declares, one item per array and a string
 * wherever one may be: the strings are then replaced one at a time. Components are followed
 * (at most `depth` deep, so a schema naming itself ends).
 */
function sample(schema: Schema, components: Record<string, Schema>, depth = 0): unknown {
  if (depth > 12) return null;
  const next = (s: Schema) => sample(s, components, depth + 1);
  if (schema.$ref) return next(components[schema.$ref.replace('#/components/schemas/', '')] ?? {});
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.[0]) return next(branches[0]);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => next(s) as object));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? (schema.properties ? 'object' : undefined);
  if (type === 'object' || (type === undefined && schema.additionalProperties)) {
    const value: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.properties ?? {}))
      value[key] = next(property);
    if (!schema.properties && schema.additionalProperties !== false) value.anything = 'text';
    return value;
  }
  if (type === 'array') {
    const items = schema.items ?? {};
    return Array.isArray(items) ? items.map(next) : [next(items)];
  }
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  return 'text';
}

/** The JSON pointer of every string in a value (the value itself: `''`). */
function stringsOf(value: unknown, pointer = ''): string[] {
  if (typeof value === 'string') return [pointer];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    stringsOf(item, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`),
  );
}

/** A copy of `value` with the string at `pointer` replaced. */
function replacedAt(value: unknown, pointer: string, by: string): unknown {
  if (pointer === '') return by;
  const copy = structuredClone(value) as Record<string, unknown>;
  const keys = pointer
    .slice(1)
    .split('/')
    .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
  let at: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[keys.at(-1)!] = by;
  return copy;
}

/** The OpenAPI document, as far as these tests read it. */
interface Contract {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/**
 * Every string of every JSON request body the document describes, each with its operation
 * (the path's parameters filled) and the sample body it is in.
 */
function* bodyStrings(
  contract: Contract,
): Generator<{ path: string; method: string; url: string; body: unknown; pointer: string }> {
  for (const [path, methods] of Object.entries(contract.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      const body = sample(schema, contract.components.schemas);
      const url = fill(path, '00000000-0000-4000-8000-000000000000');
      for (const pointer of stringsOf(body)) yield { path, method, url, body, pointer };
    }
  }
}

/** Values a query parameter is given, raw in the URL: none may answer 5xx. */
const QUERY_VALUES = [
  'abc',
  '',
  '-1',
  '0',
  '1e3',
  '1e400',
  '1.5',
  'true',
  'null',
  '9007199254740993',
  '%F0%9F%92%A9',
  '%FF',
  '__proto__',
  'x'.repeat(3000),
];

/** Text no form sends, in one value: very long, a direction override, a lone surrogate. */
const ODD_TEXT = `${'x'.repeat(20_000)}\u202e\ufeff\ud800`;

/**
 * Every endpoint the OpenAPI document lists, each method, given malformed requests:
 * none answers 5xx, the server stays healthy, and no refused request adds or changes a row.
 */
describe('the API under malformed requests', () => {
  let api: ApiHarness;
  let token: string;
  beforeAll(async () => {
    // No limit on the public check: every request reaches the handler, not the rate limiter.
    api = await startApiServer('pglite', { demoData: true, verificationRateLimit: 0 });
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
    const versions = await allTables(db)
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

  it('answers no 5xx to any value of any query parameter, and writes nothing', async () => {
    const contract = (await api.call('GET', '/api/openapi.json')).json() as Contract;
    const before = await snapshot();
    const failures: string[] = [];
    let sent = 0;
    for (const [path, methods] of Object.entries(contract.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const names = (operation.parameters ?? []).filter((p) => p.in === 'query');
        const url = fill(path, '00000000-0000-4000-8000-000000000000');
        for (const { name } of names) {
          const queries = [
            ...QUERY_VALUES.map((value) => `${name}=${value}`),
            `${name}=a&${name}=b`,
            `${name}[x]=1`,
          ];
          for (const query of queries) {
            const response = await api.app.inject({
              method: method.toUpperCase() as 'GET',
              url: `${url}?${query}`,
              headers: { authorization: `Bearer ${token}` },
            });
            sent += 1;
            if (response.statusCode >= 500)
              failures.push(`${method} ${path}?${query.slice(0, 40)} ${response.statusCode}`);
          }
          // A NUL character in the value: refused as the caller's mistake, naming the parameter.
          const nul = await api.app.inject({
            method: method.toUpperCase() as 'GET',
            url: `${url}?${name}=a%00b`,
            headers: { authorization: `Bearer ${token}` },
          });
          const field = nul.statusCode === 400 ? nul.json().error.fields?.[0] : undefined;
          if (field?.path !== `/${name}` || field?.rule !== 'nulCharacter')
            failures.push(
              `${method} ${path}?${name}=NUL ${nul.statusCode} ${nul.body.slice(0, 80)}`,
            );
        }
      }
    }
    expect(failures).toEqual([]);
    // The contract names query parameters (the inbox's limit, catalogue options, deletes).
    expect(sent).toBeGreaterThan(100);
    expect(await snapshot()).toEqual(before);
  }, 600_000);

  /** The sample body of an operation with one of its strings replaced by `text`. */
  const sendReplaced = (
    { method, url, body, pointer }: { method: string; url: string; body: unknown; pointer: string },
    text: string,
  ) =>
    api.app.inject({
      method: method.toUpperCase() as 'POST',
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify(replacedAt(body, pointer, text)),
    });

  it('answers a translated 400 to a NUL character in any string of any body, and writes nothing', async () => {
    const contract = (await api.call('GET', '/api/openapi.json')).json() as Contract;
    const before = await snapshot();
    const failures: string[] = [];
    let sent = 0;
    for (const place of bodyStrings(contract)) {
      const { path, method, pointer } = place;
      const response = await sendReplaced(place, 'a\u0000b');
      sent += 1;
      const { error } = response.statusCode === 400 ? response.json() : { error: undefined };
      const field = error?.fields?.[0];
      // The gateway's notification is kept as the text it signed (an escaped NUL is no NUL
      // character there): refused unsigned, before anything reads it.
      if (path === '/api/payments/notify/{gateway}') {
        if (error?.code !== 'PAYMENT_NOTIFICATION_REFUSED')
          failures.push(`${method} ${path} ${pointer} ${response.statusCode}`);
      } else if (path === '/api/payments/notify/{gateway}/refunds') {
        // A refund's report likewise: refused unsigned (401), before anything reads it.
        const refused = response.statusCode === 401 ? response.json().error : undefined;
        if (refused?.code !== 'REFUND_NOTIFICATION_FORGED')
          failures.push(`${method} ${path} ${pointer} ${response.statusCode}`);
      } else if (field?.path !== (pointer || '/') || field?.rule !== 'nulCharacter')
        failures.push(`${method} ${path} ${pointer} ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
    // Every entity's fields are among them: thousands of strings.
    expect(sent).toBeGreaterThan(1000);
    expect(await snapshot()).toEqual(before);
  }, 600_000);

  // Last: a sample body may be a valid one, and be kept.
  it('answers no 5xx to odd text in any string of any body', async () => {
    const contract = (await api.call('GET', '/api/openapi.json')).json() as Contract;
    const failures: string[] = [];
    for (const place of bodyStrings(contract)) {
      const response = await sendReplaced(place, ODD_TEXT);
      if (response.statusCode >= 500)
        failures.push(`${place.method} ${place.path} ${place.pointer} ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
    expect((await api.call('GET', '/api/health')).statusCode).toBe(200);
  }, 600_000);
});
