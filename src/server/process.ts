import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { DefinitionBundle } from '../core/definitions/types';
import { buildGeneration, type Generation } from './app';
import type { ServerConfig } from './config';
import { ensureDeclaredIndexes, openDatabase, type DatabaseHandle } from './db/database';
import { readDefinitionFiles, type DefinitionFiles } from './definitions/files';
import { checkDefinitions, type DefinitionProblem } from './definitions/load';
import {
  adoptFolder,
  DEFINITION_SET_CHANNEL,
  filesDigest,
  folderConflictNow,
  newestSet,
} from './definitions/sets';
import { compileValidators } from './definitions/validators';
import { rolesGrantedBy } from './implementations';
import type { DemoAccount, ServerModule } from './module';
import type { OutboxWorker } from './notifications/worker';
import type { TimerWorker } from './documents/timers';
import type { AuditLog } from './audit/log';
import type { RetentionWorker } from './retention/runner';
import { ServerMetrics } from './observability/metrics';
import { currentRequest, withRequestContext } from './observability/request-context';
import { Tracing } from './observability/tracing';
import { openShared, type AppOverrides, type LoadedDefinitions, type Shared } from './shared';

export type { AppOverrides, LoadedDefinitions } from './shared';

/** Loads and checks the definitions of `dir` and compiles (or imports cached) validators. */
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
 * The server: the database, the shared services, and the app serving the current definitions.
 * A new set gets an app of its own; requests go to it once it is ready (`switchTo`).
 */
export interface PortalServer {
  readonly app: FastifyInstance;
  readonly database: DatabaseHandle;
  readonly definitions: DefinitionBundle;
  readonly demoAccounts: DemoAccount[];
  readonly outbox: OutboxWorker;
  /** The workflows' timer worker (tests call its `runOnce(now)`). */
  readonly timers: TimerWorker;
  /** The audit trail's writer (tests `flush` it before reading the trail). */
  readonly audit: AuditLog;
  /** The daily retention job (tests call its `runOnce(now)`). */
  readonly retention: RetentionWorker;
  /** Serves over HTTP (port 0: any free one), whichever app is current. */
  listen(options: { port: number; host: string }): Promise<AddressInfo>;
  /** Hands a raw request to the current app (what `listen` does for each request). */
  handle(request: IncomingMessage, response: ServerResponse): void;
  /** Stops serving: the HTTP server, the current app, then the database. */
  close(): Promise<void>;
}

/** Builds the whole server; `modules` is given by the caller: the engine never imports one. */
export async function buildServer(
  config: ServerConfig,
  modules: readonly ServerModule[],
  overrides: AppOverrides = {},
): Promise<PortalServer> {
  // The database opens and migrates while the definitions load; a refused one stops the start.
  const metrics = new ServerMetrics();
  const tracing = await Tracing.start(config.tracing);
  const loading = overrides.loaded
    ? Promise.resolve(overrides.loaded)
    : loadAndCompile(config.definitionsDir, modules, config.validatorCacheDir);
  const opening = openDatabase({
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    poolSize: config.databasePoolSize,
    dataDir: config.dataDir,
    workflows: loading.then(({ definitions }) => definitions.workflows),
    observeQuery: (query) => {
      metrics.observeQuery(query.sql, query.durationMs / 1000, query.failed);
      tracing?.query(
        { ...query, system: config.databaseUrl ? 'postgresql' : 'pglite' },
        currentRequest()?.trace?.span,
      );
    },
  });
  let loaded: LoadedDefinitions;
  try {
    loaded = await loading;
  } catch (error) {
    await opening.then((handle) => handle.close()).catch(() => undefined);
    await tracing?.shutdown();
    throw error;
  }
  const database = await opening;
  let shared: Shared;
  let current: Generation;
  let stopFollowing: () => void = () => undefined;
  try {
    // The set to serve: the folder's, unless published ones came after it (sets.ts).
    const { set, conflict } = await adoptFolder(database.db, loaded.files);
    const folderFiles = loaded.files;
    if (set.digest !== filesDigest(folderFiles))
      loaded = await compileFiles(set.files, modules, config.validatorCacheDir);
    shared = {
      ...(await openShared(config, modules, overrides, database, metrics)),
      follow: () => follow(),
      ...(tracing && { tracing }),
      // Kept while the conflict lasts, for the studio to show and settle it.
      ...(conflict && { folderConflict: conflict, folderFiles }),
    };
    metrics.readPoolFrom(() => database.poolState?.());
    current = await buildGeneration(shared, loaded, set.version);
    watch(current);
    if (conflict)
      current.app.log.warn(
        conflict,
        `the definitions folder changed since version ${conflict.importedVersion} was recorded from it, but version ${conflict.servedVersion}, published since, stays served: the folder is not applied (docs/studio.md)`,
      );
    // A publish, here or in another process: every process switches to the newest set.
    stopFollowing = await database.notices.on(DEFINITION_SET_CHANNEL, () => {
      follow().catch((error: unknown) =>
        current.app.log.error({ err: error }, 'the published definitions could not be served'),
      );
    });
  } catch (error) {
    await database.close();
    await tracing?.shutdown();
    throw error;
  }
  /** The metrics read the backlog of the app serving, and name its definitions. */
  function watch(generation: Generation) {
    metrics.serving(generation.definitions.version, generation.setVersion);
    metrics.readBacklogFrom({
      outbox: () => generation.outbox.backlog(),
      timersDue: () => generation.timers.dueCount(),
    });
  }
  const handle = (request: IncomingMessage, response: ServerResponse) =>
    withRequestContext(request, response, tracing, () => current.handle(request, response));
  const front = http.createServer(handle);
  // One switch at a time, in the order asked.
  let switching = Promise.resolve();
  /** Serves the newest published set, unless it already does. */
  async function follow(): Promise<void> {
    await switching;
    const newest = await newestSet(database.db);
    if (!newest || newest.version <= current.setVersion) return;
    const next = await compileFiles(newest.files, modules, config.validatorCacheDir);
    await ensureDeclaredIndexes(database, next.definitions.workflows);
    // Checked again: another switch may have come first while this one compiled.
    await switching;
    if (newest.version <= current.setVersion) return;
    const done = switching.then(async () => {
      // A publish may have taken or kept the folder's files: the new app says so.
      if (shared.folderConflict)
        shared.folderConflict = await folderConflictNow(database.db, shared.folderConflict);
      const generation = await buildGeneration(shared, next, newest.version);
      const previous = current;
      current = generation;
      watch(generation);
      // Not a second process: the same one, serving another set.
      await shared.processes
        ?.serve(generation.definitions.version, generation.app.log)
        .catch((error: unknown) => generation.app.log.warn({ err: error }, 'process not updated'));
      // Requests under way finish on the app that took them.
      await previous.app.close();
    });
    switching = done.catch(() => undefined);
    await done;
  }
  return {
    get app() {
      return current.app;
    },
    database,
    get definitions() {
      return current.definitions;
    },
    demoAccounts: current.demoAccounts,
    get outbox() {
      return current.outbox;
    },
    get timers() {
      return current.timers;
    },
    get audit() {
      return shared.audit;
    },
    get retention() {
      return current.retention;
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
      // Lines of reads answered before the close are written before the database closes.
      await shared.audit.flush();
      await database.close();
      await tracing?.shutdown();
    },
  };
}
