import type { JSONWebKeySet } from 'jose';
import { AuditLog } from './audit/log';
import type { DefinitionBundle } from '../core/definitions/types';
import { createTokenVerifier, InvalidTokenError, type TokenVerifier } from './auth/token-verifier';
import { CatalogCache } from './catalog/cache';
import type { FolderConflict } from './definitions/sets';
import type { ServerConfig } from './config';
import type { DatabaseHandle } from './db/database';
import type { ProcessRegistry } from './db/process-registry';
import type { DefinitionFiles } from './definitions/files';
import type { DefinitionProblem } from './definitions/load';
import { DefinitionPreviews } from './definitions/previews';
import type { ValidatorSet } from './definitions/validators';
import { publicJwks } from './identity/keys';
import { TTL } from './identity/provider';
import { RevokedSessions } from './identity/revoked-sessions';
import { identityDb as identityTables } from './identity/tables';
import type { ServerModule } from './module';
import type { ServerMetrics } from './observability/metrics';
import type { Tracing } from './observability/tracing';

export interface AppOverrides {
  /** Trusted signing keys given directly (tests); otherwise the configured JWKS source. */
  jwks?: JSONWebKeySet;
  logger?: boolean | object;
  /** Definitions already loaded from `config.definitionsDir` with these modules (tests). */
  loaded?: LoadedDefinitions;
  /** The outbox worker's pace (tests: interval 0 runs no timer, backoff 0 retries at once). */
  outbox?: { intervalMs?: number; backoffMs?: (failedAttempts: number) => number };
  /** The timer worker's pace (tests: interval 0 runs no timer, they call `runOnce(now)`). */
  timers?: { intervalMs?: number };
  /** The daily retention job's pace (tests: they call `retention.runOnce(now)`). */
  retention?: { intervalMs?: number };
  /** How often the refund sender looks for refunds to send (refund-service.ts). */
  refunds?: { sendIntervalMs?: number };
  /** The instant share codes are made and checked at (tests: a clock they move). */
  clock?: () => Date;
}

/** The definitions of a folder, checked, and their compiled validators. */
export interface LoadedDefinitions {
  files: DefinitionFiles;
  definitions: DefinitionBundle;
  validators: ValidatorSet;
  /** What the checks said without refusing the definitions, logged once the server logs. */
  warnings?: DefinitionProblem[];
}

/** What outlives a set of definitions: opened once, shared by every app the server builds. */
export interface Shared {
  config: ServerConfig;
  modules: readonly ServerModule[];
  overrides: AppOverrides;
  database: DatabaseHandle;
  catalogCache: CatalogCache;
  verify: TokenVerifier;
  revokedSessions: RevokedSessions;
  /** The audit trail's writer (audit/log.ts), one per process: flushed when it closes. */
  audit: AuditLog;
  /** The process's metrics (observability/metrics.ts), kept across switches. */
  metrics: ServerMetrics;
  /** Traces, when a collector is named (observability/tracing.ts). */
  tracing?: Tracing;
  /** Drafts checked in the studio, kept across switches for their previews. */
  previews: DefinitionPreviews;
  /** Switches to the newest published set; resolves once it is served. */
  follow(): Promise<void>;
  /** This process's row among the processes on the database, made by the first app. */
  processes?: ProcessRegistry;
  /** The definitions folder as found at start, when it disagrees with the set published since. */
  folderConflict?: FolderConflict;
  /** The folder's files as found at start, kept while `folderConflict` lasts. */
  folderFiles?: DefinitionFiles;
}

/** Opens what every app of this server shares: the token check and the catalogue cache. */
export async function openShared(
  config: ServerConfig,
  modules: readonly ServerModule[],
  overrides: AppOverrides,
  database: DatabaseHandle,
  metrics: ServerMetrics,
): Promise<Omit<Shared, 'follow'>> {
  const catalogCache = await CatalogCache.start(database.db, database.notices);
  // The built-in identity server's keys are trusted directly, unless another source is named.
  const identityDb = identityTables(database.db);
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
  const audit = new AuditLog(database.db);
  audit.observe((entries) => metrics.observeAudit(entries));
  return {
    metrics,
    config,
    modules,
    overrides,
    database,
    catalogCache,
    verify,
    revokedSessions,
    previews,
    audit,
  };
}
