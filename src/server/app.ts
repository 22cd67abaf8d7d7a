import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEFINITIONS_VERSION_HEADER } from '../core/api/definitions-version';
import type { DefinitionBundle } from '../core/definitions/types';
import { ProcessRegistry } from './db/process-registry';
import { DefinitionsError } from './definitions/load';
import { checkerTextsOf, wordProblems } from './definitions/problems';
import { definitionFolderPlugin } from './plugins/definition-folder';
import { definitionSetsPlugin } from './plugins/definition-sets';
import { definitionRolesPlugin } from './plugins/definition-roles';
import { definitionImplementationsPlugin } from './plugins/definition-implementations';
import { reconcileStatuses } from './documents/status-moves';
import { installAuthentication } from './auth/plugin';
import { installErrorHandler } from './http/error-handler';
import { installNulCharacterRefusal } from './http/nul-characters';
import { installSecurityHeaders } from './http/security-headers';
import { installCompression } from './http/compression';
import { installApiContract } from './api-contract/plugin';
import { catalogPlugin } from './plugins/catalog';
import { rescreenAfterWrite } from './documents/screening';
import { enumerationsPlugin } from './plugins/enumerations';
import { definitionsPlugin } from './plugins/definitions';
import { healthPlugin } from './plugins/health';
import { installObservability } from './observability/plugin';
import { logMixin, requestIdOf } from './observability/request-context';
import { spaPlugin } from './plugins/spa';
import { evisaPlugin as documentsPlugin } from './plugins/evisa';
import { workloadPlugin } from './plugins/workload';
import { caseWorkPlugin } from './plugins/case-work';
import { payerConsentPlugin } from './plugins/payer-consents';
import { shareCodesPlugin } from './plugins/share-codes';
import { ShareCodeService } from './documents/share-codes';
import { ReferringDocuments } from './documents/referring';
import { CaseWorkService } from './documents/case-work';
import { PayerConsentService } from './documents/payer-consents';
import { delegationPlugin } from './plugins/delegations';
import { DelegationService } from './documents/delegations';
import { dashboardPlugin } from './plugins/dashboard';
import { mediaPlugin } from './plugins/media';
import { auditPlugin } from './plugins/audit';
import { AuditSearch } from './audit/search';
import { notificationsPlugin } from './notifications/plugin';
import { wakeOutbox, type OutboxAttempt, type OutboxWorker } from './notifications/worker';
import { Inbox } from './documents/messages';
import { challengePlugin } from './challenge/plugin';
import { seedCatalogs } from './catalog/seed';
import { seedDemoDocuments } from './documents/demo-documents';
import { readableThroughDocument } from './documents/access';
import { formCatalogs } from './catalog/form-catalogs';
import type { Principal } from './auth/principal';
import { CredentialStore } from './identity/credentials';
import { identityPlugin } from './identity/plugin';
import { accountSessionsPlugin } from './identity/account-plugin';
import { AccountSessions } from './identity/sessions';
import { PasskeyStore, relyingPartyOf } from './identity/passkeys';
import { passkeysPlugin } from './identity/passkeys-plugin';
import { RecoveryCodes } from './identity/recovery-codes';
import { PROTOCOL_PATH } from './identity/provider';
import { ServiceCredentials } from './identity/service-clients';
import { challengeCodes } from './identity/reset-codes';
import { identityDb as identityTables } from './identity/tables';
import { compileWorkflows } from './documents/workflows';
import { implementationsOf } from './implementations';
import type { DemoAccount, StartedModule } from './module';
import { backendOf, DEFAULT_BACKEND } from '../core/documents/conventions';
import { DocumentService } from './documents/service';
import { paymentsPlugin } from './plugins/payments';
import { refundsPlugin } from './plugins/refunds';
import { RefundService } from './payments/refund-service';
import { paymentReportPlugin } from './plugins/payment-report';
import { deliverNotification } from './payments/deliver';
import { SandboxGateway } from './payments/sandbox/gateway';
import { sandboxGatewayPlugin } from './payments/sandbox/plugin';
import { PaymentService } from './payments/service';
import { startTimers, type TimerWorker } from './documents/timers';
import type { LoadedDefinitions, Shared } from './shared';
import { retentionPlugin } from './plugins/retention';
import { RetentionService, startRetention, type RetentionWorker } from './retention/runner';
import { accountDataPlugin } from './account-data/plugin';

/** Scripts only from our origin; inline styles because Mantine writes CSS variables. */
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

/** One app serving one set of definitions, and what it alone holds. */
export interface Generation {
  /** The version of the published set it serves (definitions/sets.ts). */
  setVersion: number;
  app: FastifyInstance;
  /** Fastify's handler of a raw request, for the HTTP server that listens. */
  handle: (request: IncomingMessage, response: ServerResponse) => void;
  definitions: DefinitionBundle;
  demoAccounts: DemoAccount[];
  outbox: OutboxWorker;
  /** The workflows' timers (documents/timers.ts). */
  timers: TimerWorker;
  /** The daily retention job (retention/runner.ts). */
  retention: RetentionWorker;
}

/** Builds the app serving one set of definitions, ready when it returns. */
export async function buildGeneration(
  shared: Shared,
  loaded: LoadedDefinitions,
  setVersion: number,
): Promise<Generation> {
  const { config, modules, overrides, database, catalogCache, verify, revokedSessions } = shared;
  const { definitions, validators } = loaded;
  const implementations = implementationsOf(modules);
  const workflows = compileWorkflows(
    definitions.workflows,
    definitions.schemas,
    validators,
    implementations,
  );
  // Stored documents in a removed status are moved as mapped, or the definitions are refused.
  const statuses = await reconcileStatuses(database.db, definitions.workflows);
  if (statuses.problems.length > 0) {
    const texts = checkerTextsOf(definitions.translations);
    throw new DefinitionsError(wordProblems(statuses.problems, texts, 'en'), statuses.problems);
  }
  const identityDb = identityTables(database.db);
  const credentials = new CredentialStore(identityDb, config.identity);
  // Passkeys for the portal's public address, and recovery codes (docs/identity.md).
  const passkeys = new PasskeyStore(identityDb, relyingPartyOf(config.publicUrl));
  const recoveryCodes = new RecoveryCodes(identityDb);

  const gateway = new SandboxGateway({
    db: database.db,
    publicUrl: config.publicUrl,
    secret: config.payments.sandboxSecret,
  });
  let handle: Generation['handle'] | undefined;
  const app = Fastify({
    // Every line written while a request is handled names it (a test's own logger included).
    logger:
      overrides.logger === false
        ? false
        : {
            level: config.logLevel,
            mixin: logMixin,
            ...(typeof overrides.logger === 'object' ? overrides.logger : {}),
          },
    // The id the front server gave the request (a caller's X-Request-Id, or a new one).
    genReqId: requestIdOf,
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
  // Recorded before anything is served: a process with other definitions says so at once.
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
  const { directory, accounts, roleHolders } = Object.assign({}, ...started) as StartedModule;
  const demoAccounts = started.flatMap((module) => module.demoAccounts ?? []);
  // Revoking or replacing credentials ends their tokens as signing out ends a session's.
  const serviceClients =
    directory && config.identity.enabled
      ? new ServiceCredentials(identityDb, directory, revokedSessions)
      : undefined;
  await installObservability(app, { metrics: shared.metrics, metricsToken: config.metricsToken });
  await installSecurityHeaders(app, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    crossOriginEmbedderPolicy: false,
  });
  // Before any route: each route is hooked as it is added.
  await installCompression(app);
  // Which definitions answered: an open page learns of a publish from its next request.
  app.addHook('onSend', async (_request, reply) => {
    reply.header(DEFINITIONS_VERSION_HEADER, definitions.version);
  });
  installErrorHandler(app, definitions.translations);
  installNulCharacterRefusal(app);
  installAuthentication(app, verify, config.identity.enabled ? ['/realms/'] : []);
  // A person's sessions, as their security page lists them; each request is a use of its own.
  const accountSessions = new AccountSessions(identityDb, revokedSessions, shared.audit);
  app.addHook('onRequest', async (request) => {
    if (request.principal?.sessionId) accountSessions.touch(request.principal.sessionId);
  });
  // Before the routes: the contract gathers their schemas as they are registered.
  await installApiContract(
    app,
    definitions,
    modules.flatMap((module) => module.apiTags ?? []),
  );

  let timers: TimerWorker | undefined;
  let retention: RetentionWorker | undefined;
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
        folderConflict: shared.folderConflict,
      });
      await api.register(definitionImplementationsPlugin, {
        prefix: '/definitions/implementations',
        implementations,
      });
      await api.register(definitionFolderPlugin, {
        prefix: '/definitions/sets/folder',
        database,
        conflict: shared.folderConflict,
        files: shared.folderFiles,
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
        formCatalogs: formCatalogs(definitions.schemas, definitions.workflows),
        cache: catalogCache,
        texts: definitions.translations,
        // A block written after a submission flags the documents it matches (screening.ts).
        afterWrite: async (catalog, entry, actor) =>
          void (await rescreenAfterWrite(
            database.db,
            definitions.workflows,
            catalog,
            entry,
            actor,
          )),
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
      for (const backend of implementations.backends) {
        const served = new Map(
          [...workflows].filter(([, w]) => backendOf(w.definition) === backend),
        );
        const searchLimits = {
          maxItems: config.searchMaxItems,
          exactCountLimit: config.searchExactCountLimit,
          maxOffset: config.searchMaxOffset,
        };
        const documents = new DocumentService(database.db, served, searchLimits, {
          publicUrl: config.publicUrl,
          texts: definitions.translations,
          catalogs: catalogCache,
          officerNamesToPublic: config.officerNamesToPublic,
          ...(accounts && roleHolders ? { accounts, roleHolders } : {}),
          ...(inbox ? { inbox } : {}),
          sessionsEnded: (sids) => revokedSessions.endedHere(sids),
        });
        services.set(backend, documents);
        await api.register(documentsPlugin, {
          prefix: `/${backend}`,
          documents,
          catalogs: definitions.catalogs,
          ...(config.auditReads ? { audit: shared.audit } : {}),
        });
        await api.register(workloadPlugin, { prefix: `/${backend}`, documents });
        // Officers' case notes and flags on the same documents (documents/case-work.ts).
        await api.register(caseWorkPlugin, {
          prefix: `/${backend}`,
          documents,
          caseWork: new CaseWorkService(database.db, (type) => documents.workflow(type)),
          referring: new ReferringDocuments(database.db, (type) => documents.workflow(type)),
        });
        // Payers a holder names for their documents (documents/payer-consents.ts).
        if ([...served.values()].some((w) => w.definition.payerConsent))
          await api.register(payerConsentPlugin, {
            prefix: `/${backend}`,
            documents,
            consents: new PayerConsentService(
              database.db,
              (type) => documents.workflow(type),
              () => served.values(),
              accounts,
            ),
          });
        // Share codes and the check log of every public check (documents/share-codes.ts).
        const shareCodes = new ShareCodeService(
          database.db,
          served,
          () => documents.effectEnvironment,
          overrides.clock,
        );
        if ([...served.values()].some((w) => w.definition.shareCodes))
          await api.register(shareCodesPlugin, {
            prefix: `/${backend}`,
            db: database.db,
            documents,
            workflows: served,
            shareCodes,
            rateLimit: config.verificationRateLimit,
          });
        // Delegates a holder names for their documents (documents/delegations.ts).
        if ([...served.values()].some((w) => w.definition.delegation))
          await api.register(delegationPlugin, {
            prefix: `/${backend}`,
            documents,
            delegations: new DelegationService(
              database.db,
              (type) => documents.workflow(type),
              () => served.values(),
              accounts,
            ),
          });
        // Library, tasks, statistics and the public document check span the default backend.
        if (backend === DEFAULT_BACKEND) {
          await api.register(dashboardPlugin, {
            prefix: `/${backend}`,
            db: database.db,
            workflows: served,
            searchLimits,
            verificationRateLimit: config.verificationRateLimit,
            checks: shareCodes,
            accounts,
            ...(config.auditReads ? { audit: shared.audit } : {}),
          });
        }
      }
      // The workflows' timers, fired through the service of their type's backend.
      timers = startTimers({
        db: database.db,
        served: (type) => {
          const workflow = workflows.get(type);
          const documents = workflow && services.get(backendOf(workflow.definition));
          return workflow && documents ? { workflow, documents } : undefined;
        },
        log: app.log,
        intervalMs: overrides.timers?.intervalMs,
        wake: () => wakeOutbox(database.db),
      });
      const timerWorker = timers;
      // preClose: stopped before the database closes, as the outbox is.
      app.addHook('preClose', async () => timerWorker.stop());
      await api.register(definitionRolesPlugin, {
        prefix: '/definitions/roles',
        database,
        served: definitions,
        previews: shared.previews,
        documents: (backend) => services.get(backend),
      });
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
      if (directory && config.identity.enabled)
        await api.register(accountSessionsPlugin, {
          db: identityDb,
          sessions: accountSessions,
          directory,
          tokenUrl: moduleServices.tokenUrl,
        });
      // The signed-in person's passkeys and recovery codes, from the security page.
      if (directory && serviceClients)
        await api.register(passkeysPlugin, {
          prefix: '/account',
          directory,
          passkeys,
          recoveryCodes,
          audit: shared.audit,
        });
      // The signed-in person's own data, as one archive (account-data/).
      await api.register(accountDataPlugin, {
        prefix: '/account',
        db: database.db,
        workflowOf: (type: string) => workflows.get(type)?.definition,
        documentsOf: (type: string) => {
          const workflow = workflows.get(type);
          return workflow && services.get(backendOf(workflow.definition));
        },
        audit: shared.audit,
        clock: overrides.clock,
      });
      await api.register(mediaPlugin, {
        prefix: '/media',
        db: database.db,
        maxBytes: config.mediaMaxBytes,
        types: config.mediaTypes,
        readable: (principal: Principal, mediaId: string) =>
          readableThroughDocument(database.db, workflows.values(), principal, mediaId),
        ...(config.auditReads ? { audit: shared.audit } : {}),
      });
      await api.register(auditPlugin, {
        prefix: '/audit',
        search: new AuditSearch(database.db, accounts),
        audit: shared.audit,
        texts: definitions.translations,
      });
      await api.register(challengePlugin, {
        prefix: '/challenge',
        db: database.db,
        config,
        texts: definitions.translations,
      });
      const refunds = new RefundService({
        db: database.db,
        documents: services.get(DEFAULT_BACKEND)!,
        gateway,
        publicUrl: config.publicUrl,
        workflows: definitions.workflows,
        log: app.log,
        ...(overrides.refunds ?? {}),
      });
      refunds.start();
      // preClose: stopped before the database closes, as the outbox is.
      app.addHook('preClose', async () => refunds.stop());
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
        refunds,
      });
      await api.register(refundsPlugin, {
        prefix: '/payments',
        documents: services.get(DEFAULT_BACKEND)!,
        translations: definitions.translations,
        refunds,
      });
      // The finance officers' payment report (payments/report.ts).
      await api.register(paymentReportPlugin, {
        prefix: '/payments',
        db: database.db,
        translations: definitions.translations,
      });
      // Retention: the dry run, the run of the plan shown, and the daily job (docs/retention.md).
      const retentionService = new RetentionService(
        database.db,
        definitions.workflows,
        shared.audit,
        overrides.clock,
      );
      const retentionWorker = startRetention({
        service: retentionService,
        intervalMs: overrides.retention?.intervalMs,
        log: app.log,
      });
      retention = retentionWorker;
      app.addHook('preClose', async () => retentionWorker.stop());
      await api.register(retentionPlugin, {
        prefix: '/retention',
        db: database.db,
        retention: retentionService,
      });
    },
    { prefix: '/api' },
  );
  // The sandbox gateway: a stand-in for a bank's hosted payment page, served beside the portal.
  gateway.deliverThrough(
    (url, body, headers) => deliverNotification(app, config.publicUrl, url, body, headers),
    (message, fields) => app.log.warn(fields, message),
  );
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
    ...(shared.tracing && { around: shared.tracing.delivery.bind(shared.tracing) }),
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
      audit: shared.audit,
      sessions: accountSessions,
      passkeys,
      recoveryCodes,
    });
  }
  await app.register(spaPlugin, { staticDir: config.staticDir });
  await app.ready();
  if (!outbox) throw new Error('the outbox worker did not start');
  if (!timers) throw new Error('the timer worker did not start');
  if (!retention) throw new Error('the retention job did not start');
  if (!handle) throw new Error('the app has no request handler');
  return { setVersion, app, handle, definitions, demoAccounts, outbox, timers, retention };
}
