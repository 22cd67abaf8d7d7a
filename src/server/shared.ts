import type { JSONWebKeySet } from 'jose';
import type { Kysely } from 'kysely';
import type { DefinitionBundle } from '../core/definitions/types';
import { createTokenVerifier, InvalidTokenError, type TokenVerifier } from './auth/token-verifier';
import { CatalogCache } from './catalog/cache';
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
import type { IdentityTables } from './identity/tables';
import type { ServerModule } from './module';

/*
 * What a portal server keeps across the sets of definitions it serves (src/server/process.ts
 * switches between them): the options it was built with, the database, the token check, the
 * sessions signed out and the catalogue cache. Every app it builds (app.ts) shares them.
 */

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

/** What outlives a set of definitions: opened once, shared by every app the server builds. */
export interface Shared {
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

/** Opens what every app of this server shares: the token check and the catalogue cache. */
export async function openShared(
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
