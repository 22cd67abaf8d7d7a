import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { serverModules } from '../../src/modules/server';
import {
  buildServer,
  type AppOverrides,
  loadAndCompile,
  type LoadedDefinitions,
  type PortalServer,
} from '../../src/server/process';
import type { ServerModule } from '../../src/server/module';
import { configFromEnv, PROJECT_ROOT, type ServerConfig } from '../../src/server/config';
import { allTables, type AllTables } from './all-tables';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases';
import { createTestIssuer, type TestIssuer, type TokenClaims } from './tokens';

export const TEST_ISSUER = 'http://localhost:8080/realms/portal';

/**
 * The issuer of the test servers' tokens, made once per worker: generating its RSA key costs
 * 0.1-0.3 s of CPU, and every server trusts it the same way (its key is given as the JWKS).
 */
let testIssuer: Promise<TestIssuer> | undefined;

/** A real server (definitions, database, routes) for API tests, driven through inject(). */
export interface ApiHarness {
  server: PortalServer;
  app: FastifyInstance;
  issuer: TestIssuer;
  database: TestDatabase;
  config: ServerConfig;
  /**
   * The server's database with every table, the document tables and the outbox among them,
   * which the server itself gives to the store and the notifications only: what a test reads
   * or arranges directly.
   */
  readonly tables: Kysely<AllTables>;
  tokenFor(groups: string[], extra?: Partial<TokenClaims>): Promise<string>;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    options?: {
      token?: string;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    },
  ): Promise<LightMyRequestResponse>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Definitions loaded and compiled once per folder and module list in a worker (its files share
 * one module graph): loading and compiling them is the costliest part of a server's start, and
 * no test changes them. A folder written by a test (definitionsWithFixtures) is a new key.
 */
const loadedDefinitions = new Map<string, Promise<LoadedDefinitions>>();
function definitionsOf(dir: string, modules: readonly ServerModule[]) {
  const key = `${dir}\0${modules.map((m) => m.id).join(',')}`;
  let loaded = loadedDefinitions.get(key);
  if (!loaded) {
    loaded = loadAndCompile(dir, modules);
    // A refused folder is not kept: the test that wrote it expects the refusal each time.
    loaded.catch(() => loadedDefinitions.delete(key));
    loadedDefinitions.set(key, loaded);
  }
  return loaded;
}

export async function startApiServer(
  kind: DatabaseKind,
  overrides: Partial<ServerConfig> = {},
  /** The business modules' server code the server is built with (the portal's by default). */
  modules: readonly ServerModule[] = serverModules,
  /** The outbox worker's pace: interval 0 runs no timer, the test polls `server.outbox`. */
  outbox?: AppOverrides['outbox'],
  /** More of the app's overrides (a share codes' clock). */
  app: Pick<AppOverrides, 'clock' | 'logger'> = {},
): Promise<ApiHarness> {
  const database = await createTestDatabase(kind);
  testIssuer ??= createTestIssuer(TEST_ISSUER);
  const issuer = await testIssuer;
  const config: ServerConfig = {
    ...configFromEnv({}),
    dataDir: database.dataDir,
    databaseUrl: database.databaseUrl,
    databaseSchema: database.schema,
    definitionsDir: PROJECT_ROOT,
    ...overrides,
    // Given an issuer, the server trusts it as in production (the built-in identity server's
    // own keys when it is that server); otherwise the test issuer's key alone.
    auth: overrides.auth ?? { issuer: TEST_ISSUER, audience: 'portal' },
  };
  const jwks = overrides.auth ? undefined : issuer.jwks;
  let server = await buildServer(config, modules, {
    jwks,
    logger: false,
    loaded: await definitionsOf(config.definitionsDir, modules),
    outbox,
    // No test waits for the clock: timers fire when a test calls `server.timers.runOnce(now)`.
    timers: { intervalMs: 0 },
    ...app,
  });
  const harness: ApiHarness = {
    get server() {
      return server;
    },
    get app() {
      return server.app;
    },
    get tables() {
      return allTables(server.database.db);
    },
    issuer,
    database,
    config,
    tokenFor: (groups, extra = {}) =>
      issuer.token({
        sub: `user-${groups.join('-') || 'none'}`,
        preferred_username: 'tester',
        ...extra,
        groups,
      }),
    call: (method, url, options = {}) =>
      server.app.inject({
        method,
        url,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.body !== undefined || options.rawBody !== undefined
            ? { 'content-type': 'application/json' }
            : {}),
          ...options.headers,
        },
        payload:
          options.rawBody ??
          (options.body === undefined ? undefined : JSON.stringify(options.body)),
      }),
    async restart() {
      await server.close();
      // Read again: a restart is how a test sees definitions it has changed.
      server = await buildServer(config, modules, {
        jwks,
        logger: false,
        outbox,
        timers: { intervalMs: 0 },
      });
    },
    async close() {
      await server.close();
      await database.cleanup();
    },
  };
  return harness;
}

/**
 * Creates catalogue entries through the catalogue API, valid from 2020 with no end, as the
 * holder of `token` (a catalogue manager); any refusal stops the test with the server's answer.
 */
export async function createCatalogEntries(
  api: ApiHarness,
  token: string,
  entries: ReadonlyArray<readonly [string, Readonly<Record<string, unknown>>]>,
): Promise<void> {
  for (const [catalog, entry] of entries) {
    const created = await api.call('POST', `/api/catalog/v1/${catalog}`, {
      token,
      body: { ...entry, startTime: '2020-01-01T00:00:00Z' },
    });
    if (created.statusCode !== 201) throw new Error(created.body);
  }
}
