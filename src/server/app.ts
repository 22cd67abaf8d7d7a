import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { JSONWebKeySet } from 'jose';
import { DEFINITIONS_VERSION_HEADER } from '../core/api/definitions-version';
import type { DefinitionBundle } from '../core/definitions/types';
import type { ServerConfig } from './config';
import { openDatabase, type DatabaseHandle } from './db/database';
import { declaredKeys } from './db/key-indexes';
import { declaredListIndexes } from './db/list-indexes';
import { ProcessRegistry } from './db/process-registry';
import { checkDefinitions, DefinitionsError, type DefinitionProblem } from './definitions/load';
import { readDefinitionFiles, type DefinitionFiles } from './definitions/files';
import { adoptFolder, DEFINITION_SET_CHANNEL, filesDigest, newestSet } from './definitions/sets';
import { definitionSetsPlugin } from './plugins/definition-sets';
import { DefinitionPreviews } from './definitions/previews';
import { ensureKeyIndexes } from './db/key-indexes';
import { ensureListIndexes } from './db/list-indexes';
import { reconcileStatuses } from './documents/status-moves';
import { compileValidators, type ValidatorSet } from './definitions/validators';
import { installAuthentication } from './auth/plugin';
import { createTokenVerifier, InvalidTokenError, type TokenVerifier } from './auth/token-verifier';
import { installErrorHandler } from './http/error-handler';
import { installNulCharacterRefusal } from './http/nul-characters';
import { installSecurityHeaders } from './http/security-headers';
import { installCompression } from './http/compression';
import { installApiContract } from './api-contract/plugin';
import { catalogPlugin } from './plugins/catalog';
import { enumerationsPlugin } from './plugins/enumerations';
import { definitionsPlugin } from './plugins/definitions';
import { healthPlugin } from './plugins/health';
import { spaPlugin } from './plugins/spa';
import { evisaPlugin as documentsPlugin } from './plugins/evisa';
import { dashboardPlugin } from './plugins/dashboard';
import { mediaPlugin } from './plugins/media';
import { notificationsPlugin } from './notifications/plugin';
import { wakeOutbox, type OutboxAttempt, type OutboxWorker } from './notifications/worker';
import { Inbox } from './documents/messages';
import { challengePlugin } from './challenge/plugin';
import { seedCatalogs } from './catalog/seed';
import { seedDemoDocuments } from './documents/demo-documents';
import { readableThroughDocument } from './documents/access';
import { formCatalogs } from './catalog/form-catalogs';
import { CatalogCache } from './catalog/cache';
import type { Principal } from './auth/principal';
import { CredentialStore } from './identity/credentials';
import { publicJwks } from './identity/keys';
import { identityPlugin } from './identity/plugin';
import { PROTOCOL_PATH, TTL } from './identity/provider';
import { RevokedSessions } from './identity/revoked-sessions';
import { ServiceCredentials } from './identity/service-clients';
import { challengeCodes } from './identity/reset-codes';
import type { IdentityTables } from './identity/tables';
import type { Kysely } from 'kysely';
import { compileWorkflows } from './documents/workflows';
import { implementationsOf, rolesGrantedBy } from './implementations';
import type { DemoAccount, ServerModule, StartedModule } from './module';
import { backendOf, DEFAULT_BACKEND } from '../core/documents/conventions';
import { DocumentService } from './documents/service';
import { paymentsPlugin } from './plugins/payments';
import { deliverNotification } from './payments/deliver';
import { SandboxGateway } from './payments/sandbox/gateway';
import { sandboxGatewayPlugin } from './payments/sandbox/plugin';
import { PaymentService } from './payments/service';

export interface AppOverrides {
  /** Trusted signing keys given directly (tests); otherwise the configured JWKS source. */
  jwks?: JSONWebKeySet;
  /** Pino options, or false for silence in tests. */
  logger?: boolean | object;
  /**
   * Definitions already loaded and checked from `config.definitionsDir` with these modules, and
   * their validators (tests start many servers from one folder; nothing changes them).
   */
  loaded?: LoadedDefinitions;
  /**
   * The outbox worker's pace (tests: interval 0 runs no timer, the test polls with
   * `server.outbox.runOnce()`; backoff 0 retries at once).
   */
  outbox?: { intervalMs?: number; backoffMs?: (failedAttempts: number) => number };
}

/** The definitions of a folder, checked, and their compiled validators. */
export interface LoadedDefinitions {
  /** The files the definitions were read from (definitions/files.ts). */
  files: DefinitionFiles;
  definitions: DefinitionBundle;
  validators: ValidatorSet;
  /** What the checks said without refusing the definitions, logged once the server logs. */
  warnings?: DefinitionProblem[];
}

/**
 * Loads and checks the definitions of `dir` and compiles their validators, or imports them from
 * `validatorCacheDir` when it keeps those of the same definitions.
 */
export async function loadAndCompile(
  dir: string,
  modules: readonly ServerModule[],
  validatorCacheDir?: string,
): Promise<LoadedDefinitions> {
  return compileFiles(await readDefinitionFiles(dir), modules, validatorCacheDir);
}

/** Checks a set of definition files and compiles their validators, as at start. */
async function compileFiles(
  files: DefinitionFiles,
  modules: readonly ServerModule[],
  validatorCacheDir?: string,
): Promise<LoadedDefinitions> {
  const warnings: DefinitionProblem[] = [];
  const definitions = await checkDefinitions(files, modules, {
    grantedRoles: (workflows) => rolesGrantedBy(modules, (granted) => granted.seeded(workflows)),
    warn: (warning) => warnings.push(warning),
  });
  const validators = await compileValidators(definitions, { cacheDir: validatorCacheDir });
  return { files, definitions, validators, warnings };
}

/**
 * The server: the database and what lives as long as it (the token check, the catalogue
 * cache), and the app serving the current definitions. A new set of definitions gets an app of
 * its own, built beside the one serving; requests go to the new one once it is ready, and the
 * old one is closed (`switchTo`, on each publish's notice). Whoever listens does so through `listen`, which always hands
 * requests to the current app.
 */
export interface PortalServer {
  /** The app of the current definitions: it changes when they do. */
  readonly app: FastifyInstance;
  readonly database: DatabaseHandle;
  readonly definitions: DefinitionBundle;
  /** Demo accounts seeded at the first start (embedded default only), for the start-up banner. */
  readonly demoAccounts: DemoAccount[];
  /** The current app's outbox worker, delivering e-mail and SMS. */
  readonly outbox: OutboxWorker;
  /** Serves over HTTP (port 0: any free one), whichever app is current. */
  listen(options: { port: number; host: string }): Promise<AddressInfo>;
  /** Hands a raw request to the current app (what `listen` does for each request). */
  handle(request: IncomingMessage, response: ServerResponse): void;
  /** Stops serving: the HTTP server, the current app, then the database. */
  close(): Promise<void>;
}

/** One app serving one set of definitions, and what it alone holds. */
interface Generation {
  /** The version of the published set it serves (definitions/sets.ts). */
  setVersion: number;
  app: FastifyInstance;
  /** Fastify's handler of a raw request, for the HTTP server that listens. */
  handle: (request: IncomingMessage, response: ServerResponse) => void;
  definitions: DefinitionBundle;
  demoAccounts: DemoAccount[];
  outbox: OutboxWorker;
}

/** What outlives a set of definitions: opened once, shared by every app the server builds. */
interface Shared {
  config: ServerConfig;
  modules: readonly ServerModule[];
  overrides: AppOverrides;
  database: DatabaseHandle;
  catalogCache: CatalogCache;
  verify: TokenVerifier;
  revokedSessions: RevokedSessions;
  /** Drafts checked in the studio, kept across switches for their previews. */
  previews: DefinitionPreviews;
  /** Switches to the newest published set; resolves once it is served. */
  follow(): Promise<void>;
  /**
   * This process's row among the processes on the database, made by the first app and kept
   * by every later one (each says which set it serves), removed when the server closes.
   */
  processes?: ProcessRegistry;
}

/**
 * The strict Content-Security-Policy: scripts only from our origin (no inline, no eval).
 * Styles allow inline because Mantine writes CSS variables into a style element and style
 * attributes; that carries no script.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  frameSrc: ["'self'"],
  // The service worker (/sw.js and the Workbox runtime it imports) and the web manifest.
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  frameAncestors: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  upgradeInsecureRequests: null,
};

/**
 * Builds the whole server: definitions first (a bad one stops here), then database, then routes.
 * `modules` is the business modules' server code (src/modules/server.ts), given by the caller:
 * the engine never imports a module.
 */
export async function buildServer(
  config: ServerConfig,
  modules: readonly ServerModule[],
  overrides: AppOverrides = {},
): Promise<PortalServer> {
  // The database opens and migrates while the definitions load; the indexes they declare are
  // made once they are loaded. A definition refused stops the start, and the database is closed.
  const loading = overrides.loaded
    ? Promise.resolve(overrides.loaded)
    : loadAndCompile(config.definitionsDir, modules, config.validatorCacheDir);
  const opening = openDatabase({
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    poolSize: config.databasePoolSize,
    dataDir: config.dataDir,
    keys: loading.then(({ definitions }) => declaredKeys(definitions.workflows)),
    listIndexes: loading.then(({ definitions }) => declaredListIndexes(definitions.workflows)),
  });
  let loaded: LoadedDefinitions;
  try {
    loaded = await loading;
  } catch (error) {
    await opening.then((handle) => handle.close()).catch(() => undefined);
    throw error;
  }
  const database = await opening;
  let shared: Shared;
  let current: Generation;
  let stopFollowing: () => void = () => undefined;
  try {
    // The set to serve: the folder's, unless published ones came after it (sets.ts).
    const set = await adoptFolder(database.db, loaded.files);
    if (set.digest !== filesDigest(loaded.files))
      loaded = await compileFiles(set.files, modules, config.validatorCacheDir);
    shared = {
      ...(await openShared(config, modules, overrides, database)),
      follow: () => follow(),
    };
    current = await buildGeneration(shared, loaded, set.version);
    // A publish, here or in another process: every process switches to the newest set.
    stopFollowing = await database.notices.on(DEFINITION_SET_CHANNEL, () => {
      follow().catch((error: unknown) =>
        current.app.log.error({ err: error }, 'the published definitions could not be served'),
      );
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  const demoAccounts = current.demoAccounts;
  const handle = (request: IncomingMessage, response: ServerResponse) =>
    current.handle(request, response);
  const front = http.createServer(handle);
  let switching = Promise.resolve();
  /** Builds the app of `next` and serves it; one switch at a time, in the order asked. */
  const switchTo = (next: LoadedDefinitions, setVersion: number) => {
    const done = switching.then(async () => {
      const generation = await buildGeneration(shared, next, setVersion);
      const previous = current;
      current = generation;
      // Not a second process: the same one, serving another set.
      await shared.processes
        ?.serve(generation.definitions.version, generation.app.log)
        .catch((error: unknown) => generation.app.log.warn({ err: error }, 'process not updated'));
      // Requests under way finish on the app that took them.
      await previous.app.close();
    });
    switching = done.catch(() => undefined);
    return done;
  };
  /** Serves the newest published set, unless it already does. */
  async function follow(): Promise<void> {
    await switching;
    const newest = await newestSet(database.db);
    if (!newest || newest.version <= current.setVersion) return;
    const next = await compileFiles(newest.files, modules, config.validatorCacheDir);
    await ensureKeyIndexes(database.db, declaredKeys(next.definitions.workflows));
    await ensureListIndexes(
      database.db,
      declaredListIndexes(next.definitions.workflows),
      database.kind === 'postgres',
    );
    // Checked again: another switch may have come first while this one compiled.
    await switching;
    if (newest.version <= current.setVersion) return;
    await switchTo(next, newest.version);
  }
  return {
    get app() {
      return current.app;
    },
    database,
    get definitions() {
      return current.definitions;
    },
    demoAccounts,
    get outbox() {
      return current.outbox;
    },
    handle,
    listen: ({ port, host }) =>
      new Promise<AddressInfo>((resolve, reject) => {
        front.once('error', reject);
        front.listen(port, host, () => resolve(front.address() as AddressInfo));
      }),
    async close() {
      stopFollowing();
      await switching;
      if (front.listening) {
        const closed = new Promise<void>((resolve) => front.close(() => resolve()));
        front.closeIdleConnections();
        await closed;
      }
      await shared.processes
        ?.stop()
        .catch((error: unknown) => current.app.log.warn({ err: error }, 'process not removed'));
      await current.app.close();
      await database.close();
    },
  };
}

/** Opens what every app of this server shares: the token check and the catalogue cache. */
async function openShared(
  config: ServerConfig,
  modules: readonly ServerModule[],
  overrides: AppOverrides,
  database: DatabaseHandle,
): Promise<Omit<Shared, 'follow'>> {
  const catalogCache = await CatalogCache.start(database.db, database.notices);
  // The built-in identity server's keys are trusted directly (no HTTP round trip to ourselves),
  // unless the configuration names another key source (a real Keycloak realm, or tests' key).
  // The identity module is typed against its own tables only; Kysely's types are invariant.
  const identityDb = database.db as unknown as Kysely<IdentityTables>;
  const builtInKeys =
    config.identity.enabled && !config.auth.jwksFile && !process.env.OIDC_JWKS_URL
      ? await publicJwks(identityDb)
      : undefined;
  const verifyToken = await createTokenVerifier(config.auth, overrides.jwks ?? builtInKeys);
  // Signing out with the built-in identity server ends the session's access tokens at once.
  const revokedSessions = await RevokedSessions.follow(
    identityDb,
    TTL.AccessToken,
    database.notices,
  );
  const verify: TokenVerifier = config.identity.enabled
    ? async (token) => {
        const principal = await verifyToken(token);
        if (principal.sessionId && (await revokedSessions.isRevoked(principal.sessionId)))
          throw new InvalidTokenError('the session was signed out');
        return principal;
      }
    : verifyToken;
  const previews = new DefinitionPreviews();
  return { config, modules, overrides, database, catalogCache, verify, revokedSessions, previews };
}

/**
 * Builds the app serving one set of definitions: its workflows compiled, the stored documents
 * brought into its statuses (a removed status with documents and no mapping refuses it), the
 * seeds, then every route. Ready when it returns.
 */
async function buildGeneration(
  shared: Shared,
  loaded: LoadedDefinitions,
  setVersion: number,
): Promise<Generation> {
  const { config, modules, overrides, database, catalogCache, verify, revokedSessions } = shared;
  const { definitions, validators } = loaded;
  const workflows = compileWorkflows(
    definitions.workflows,
    definitions.schemas,
    validators,
    implementationsOf(modules),
  );
  // Stored documents must be in statuses of the loaded machines: moved where the workflow maps
  // a removed status, else these definitions are refused naming how many are stranded.
  const statuses = await reconcileStatuses(database.db, definitions.workflows);
  if (statuses.problems.length > 0) throw new DefinitionsError(statuses.problems);
  const identityDb = database.db as unknown as Kysely<IdentityTables>;
  const credentials = new CredentialStore(identityDb, config.identity);

  const gateway = new SandboxGateway({
    db: database.db,
    publicUrl: config.publicUrl,
    secret: config.payments.sandboxSecret,
  });
  let handle: Generation['handle'] | undefined;
  const app = Fastify({
    logger: overrides.logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    // The server that listens is the PortalServer's: this app only handles what it is given.
    serverFactory: (handler) => {
      handle = handler;
      return http.createServer();
    },
  });
  for (const move of statuses.moved)
    app.log.warn(`documents moved: ${move.count} ${move.type} from "${move.status}"`);
  for (const warning of loaded.warnings ?? [])
    app.log.warn(`definitions: ${warning.file}#${warning.pointer}: ${warning.message}`);
  // Recorded before anything is served, so a process whose definitions differ from those of
  // the others on this database says so at once (db/process-registry.ts). One row per
  // process: an app built for a publish says its set on that row once it serves (switchTo).
  shared.processes ??= await ProcessRegistry.start({
    db: database.db,
    digest: definitions.version,
    log: app.log,
  });
  if (config.referenceData) await seedCatalogs(database.db, definitions.catalogs);
  // Each module seeds and gives what it serves; one gives the people the identity server knows.
  const context = {
    db: database.db,
    definitions,
    config,
    log: app.log,
    credentials,
    catalogs: catalogCache,
  };
  const started: StartedModule[] = [];
  for (const module of modules) started.push((await module.start?.(context)) ?? {});
  const given = Object.assign({}, ...started) as StartedModule;
  const { directory, accounts, roleHolders } = given;
  const demoAccounts = started.flatMap((module) => module.demoAccounts ?? []);
  // Revoking or replacing credentials ends their tokens as signing out ends a session's.
  const serviceClients =
    directory && config.identity.enabled
      ? new ServiceCredentials(identityDb, directory, revokedSessions)
      : undefined;
  await installSecurityHeaders(app, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    crossOriginEmbedderPolicy: false,
  });
  // Before any route: each route is hooked as it is added.
  await installCompression(app);
  // Which definitions answered: an open page learns of a publish from its next request, and
  // offers to reload (src/portal).
  app.addHook('onSend', async (_request, reply) => {
    reply.header(DEFINITIONS_VERSION_HEADER, definitions.version);
  });
  installErrorHandler(app, definitions.translations);
  installNulCharacterRefusal(app);
  installAuthentication(app, verify, config.identity.enabled ? ['/realms/'] : []);
  // Before the routes: the contract gathers their schemas as they are registered.
  await installApiContract(app, definitions);

  // The inbox keeps what the outbox worker reports of its messages' delivery.
  let onAttempt: ((attempt: OutboxAttempt) => Promise<void>) | undefined;
  await app.register(
    async (api) => {
      await api.register(healthPlugin, { database, definitionsDigest: definitions.version });
      await api.register(definitionsPlugin, {
        prefix: '/definitions',
        bundle: definitions,
        validators,
      });
      await api.register(definitionSetsPlugin, {
        prefix: '/definitions/sets',
        database,
        modules,
        served: definitions,
        previews: shared.previews,
        follow: shared.follow,
      });
      await api.register(enumerationsPlugin, {
        prefix: '/catalog',
        translations: definitions.translations,
      });
      await api.register(catalogPlugin, {
        prefix: '/catalog/v1',
        db: database.db,
        catalogs: definitions.catalogs,
        validators,
        searchMaxItems: config.searchMaxItems,
        formCatalogs: formCatalogs(definitions.schemas),
        cache: catalogCache,
        texts: definitions.translations,
      });
      const services = new Map<string, DocumentService>();
      const inboxWorkflow = [...workflows.values()].find((w) => w.definition.inbox);
      const inbox =
        inboxWorkflow &&
        new Inbox({
          db: database.db,
          workflow: inboxWorkflow,
          documents: () => services.get(backendOf(inboxWorkflow.definition))!,
          workflowOf: (type) => workflows.get(type),
          accounts,
          publicUrl: config.publicUrl,
          texts: definitions.translations,
          channels: config.noticeChannels,
          officerNamesToPublic: config.officerNamesToPublic,
          wake: () => wakeOutbox(database.db),
        });
      onAttempt = inbox && ((attempt) => inbox.settle(attempt));
      // The default backend and those the modules declare, each served at /api/<backend>.
      for (const backend of new Set([
        DEFAULT_BACKEND,
        ...modules.flatMap((m) => m.backends ?? []),
      ])) {
        const served = new Map(
          [...workflows].filter(([, w]) => backendOf(w.definition) === backend),
        );
        const searchLimits = {
          maxItems: config.searchMaxItems,
          exactCountLimit: config.searchExactCountLimit,
        };
        const documents = new DocumentService(database.db, served, searchLimits, {
          publicUrl: config.publicUrl,
          texts: definitions.translations,
          catalogs: catalogCache,
          officerNamesToPublic: config.officerNamesToPublic,
          ...(accounts && roleHolders ? { accounts, roleHolders } : {}),
          ...(inbox ? { inbox } : {}),
        });
        services.set(backend, documents);
        await api.register(documentsPlugin, { prefix: `/${backend}`, documents });
        // Library, tasks, statistics and the public document check span the default backend.
        if (backend === DEFAULT_BACKEND) {
          await api.register(dashboardPlugin, {
            prefix: `/${backend}`,
            db: database.db,
            workflows: served,
            searchLimits,
            verificationRateLimit: config.verificationRateLimit,
          });
        }
      }
      if (config.demoData && demoAccounts.length > 0) {
        const documents = services.get(DEFAULT_BACKEND)!;
        const numbers = await seedDemoDocuments(database.db, documents, demoAccounts);
        if (numbers.length) app.log.info(`demo documents written: ${numbers.join(', ')}`);
      }
      const moduleServices = {
        ...context,
        documents: (backend = DEFAULT_BACKEND) => services.get(backend),
        serviceClients,
        tokenUrl: `${config.auth.issuer}${PROTOCOL_PATH}/token`,
      };
      for (const module of started) await module.routes?.(api, moduleServices);
      await api.register(mediaPlugin, {
        prefix: '/media',
        db: database.db,
        maxBytes: config.mediaMaxBytes,
        types: config.mediaTypes,
        readable: (principal: Principal, mediaId: string) =>
          readableThroughDocument(database.db, workflows.values(), principal, mediaId),
      });
      await api.register(challengePlugin, {
        prefix: '/challenge',
        db: database.db,
        config,
        texts: definitions.translations,
      });
      await api.register(paymentsPlugin, {
        prefix: '/payments',
        documents: services.get(DEFAULT_BACKEND)!,
        translations: definitions.translations,
        payments: new PaymentService({
          db: database.db,
          documents: services.get(DEFAULT_BACKEND)!,
          gateway,
          publicUrl: config.publicUrl,
        }),
      });
    },
    { prefix: '/api' },
  );
  // The sandbox gateway: a stand-in for a bank's hosted payment page, served beside the portal.
  await app.register(sandboxGatewayPlugin, {
    prefix: '/sandbox-gateway',
    db: database.db,
    secret: config.payments.sandboxSecret,
    deliver: (url: string, body: string, headers: Record<string, string>) =>
      deliverNotification(app, config.publicUrl, url, body, headers),
  });
  let outbox: OutboxWorker | undefined;
  await app.register(notificationsPlugin, {
    db: database.db,
    config,
    ...overrides.outbox,
    onAttempt: (attempt: OutboxAttempt) => onAttempt?.(attempt) ?? Promise.resolve(),
    onWorker: (worker: OutboxWorker) => (outbox = worker),
  });
  if (directory && serviceClients) {
    await app.register(identityPlugin, {
      db: identityDb,
      directory,
      credentials,
      serviceClients,
      revokedSessions,
      config,
      texts: definitions.translations,
      codes: challengeCodes(database.db),
    });
  }
  await app.register(spaPlugin, { staticDir: config.staticDir });
  await app.ready();
  if (!outbox) throw new Error('the outbox worker did not start');
  if (!handle) throw new Error('the app has no request handler');
  return { setVersion, app, handle, definitions, demoAccounts, outbox };
}
