import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import type { JSONWebKeySet } from 'jose';
import type { DefinitionBundle } from '../core/definitions/types';
import type { ServerConfig } from './config';
import { openDatabase, type DatabaseHandle } from './db/database';
import { loadDefinitions } from './definitions/load';
import { compileValidators } from './definitions/validators';
import { installAuthentication } from './auth/plugin';
import { createTokenVerifier } from './auth/token-verifier';
import { installErrorHandler } from './http/error-handler';
import { catalogPlugin } from './plugins/catalog';
import { definitionsPlugin } from './plugins/definitions';
import { healthPlugin } from './plugins/health';
import { spaPlugin } from './plugins/spa';
import { evisaPlugin } from './plugins/evisa';
import { mediaPlugin } from './plugins/media';
import { notificationsPlugin } from './notifications/plugin';
import { challengePlugin } from './challenge/plugin';
import { compileWorkflows } from './documents/workflows';
import { DocumentService } from './documents/service';

export interface AppOverrides {
  /** Trusted signing keys given directly (tests); otherwise the configured JWKS source. */
  jwks?: JSONWebKeySet;
  /** Pino options, or false for silence in tests. */
  logger?: boolean | object;
}

export interface PortalServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  definitions: DefinitionBundle;
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
  frameAncestors: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  upgradeInsecureRequests: null,
};

/** Builds the whole server: definitions first (a bad one stops here), then database, then routes. */
export async function buildServer(
  config: ServerConfig,
  overrides: AppOverrides = {},
): Promise<PortalServer> {
  const definitions = await loadDefinitions(config.definitionsDir);
  const validators = await compileValidators(definitions);
  const workflows = compileWorkflows(definitions.workflows, definitions.schemas, validators);
  const verify = await createTokenVerifier(config.auth, overrides.jwks);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    dataDir: config.dataDir,
  });

  const app = Fastify({
    logger: overrides.logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    trustProxy: true,
  });
  app.addHook('onClose', async () => database.close());
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    crossOriginEmbedderPolicy: false,
  });
  installErrorHandler(app, definitions.translations);
  installAuthentication(app, verify);

  await app.register(
    async (api) => {
      await api.register(healthPlugin, { database });
      await api.register(definitionsPlugin, {
        prefix: '/definitions',
        bundle: definitions,
        validators,
      });
      await api.register(catalogPlugin, {
        prefix: '/catalog/v1',
        db: database.db,
        catalogs: definitions.catalogs,
        validators,
        searchMaxItems: config.searchMaxItems,
      });
      for (const backend of ['evisa', 'connectid'] as const) {
        const served = new Map(
          [...workflows].filter(([, w]) => (w.definition.backend ?? 'evisa') === backend),
        );
        await api.register(evisaPlugin, {
          prefix: `/${backend}`,
          documents: new DocumentService(database.db, served, config.searchMaxItems),
        });
      }
      await api.register(mediaPlugin, {
        prefix: '/media',
        db: database.db,
        maxBytes: config.mediaMaxBytes,
        types: config.mediaTypes,
      });
      await api.register(challengePlugin, {
        prefix: '/challenge',
        db: database.db,
        config,
        texts: definitions.translations,
      });
    },
    { prefix: '/api' },
  );
  await app.register(notificationsPlugin, { db: database.db, config });
  await app.register(spaPlugin, { staticDir: config.staticDir });
  return { app, database, definitions };
}
