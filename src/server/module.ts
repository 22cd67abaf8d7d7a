import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DefinitionBundle } from '../core/definitions/types';
import type { WorkflowDefinition } from '../core/documents/workflow';
import type { CatalogCache } from './catalog/cache';
import type { ServerConfig } from './config';
import type { Database } from './db/schema';
import type { AccountLookup, Effect, RoleHolders } from './documents/effect-context';
import type { Guard, GuardParameters } from './documents/guards';
import type { ServerRule } from './documents/server-rules';
import type { DocumentService } from './documents/service';
import type { CredentialStore } from './identity/credentials';
import type { AccountDirectory } from './identity/directory';
import type { ServiceCredentials } from './identity/service-clients';

// The seam between the server and the business modules: a module's server code imports this
// file and core, nothing else of src/server (eslint.config.js).
export { ApiProblem, ERROR_CODES, type FieldProblem } from './http/api-error';
export { requireAnyRole, requireSignedIn } from './auth/plugin';
export type { Principal } from './auth/principal';
export { PROJECT_ROOT, type ServerConfig } from './config';
export type { Database } from './db/schema';
export { UUID } from './db/ids';
export {
  ANY_OBJECT,
  DATE_TIME,
  NO_CONTENT,
  NULLABLE_DATE_TIME,
  PROBLEM_RESPONSES,
  stringParams,
  TRANSLATIONS_SCHEMA,
  UUID_STRING,
} from './api-contract/common';
export { entriesValidAt, entriesValidAtWith, validEntry } from './catalog/valid-at';
export {
  CHALLENGE_CHANNELS,
  CHALLENGE_ERRORS,
  isCatalogueChannel,
  normaliseDestination,
  verifyChallenge,
  type ChallengeChannel,
} from './challenge/service';
export { namedRoles, type RoleOwner } from './definitions/check-roles';
export { portalUrl } from './documents/certificate';
export type { EffectContext, RoleHolder, RoleHolders } from './documents/effect-context';
export { holderTexts, messageOwner } from './documents/effects';
export { valueAt } from './documents/guards';
export type { DocumentService } from './documents/service';
export { pointerPath } from './documents/store/lists';
export { findByKey, findLiveByKeys, idsByKey, liveDocuments } from './documents/store/lookups';
export {
  draftOf,
  findDocument,
  insertSeededDocument,
  writeVersion,
  type VersionAuthor,
} from './documents/store/rows';
export type { CredentialStore } from './identity/credentials';
export type {
  AccountDirectory,
  IdentityAccount,
  PasswordPolicy,
  SecurityFlags,
} from './identity/directory';
export { mayHoldCredentials, type ServiceCredentials } from './identity/service-clients';
export { identityDb, type IdentityKysely } from './identity/tables';
export { enqueue } from './notifications/outbox';
export { endAccountSessions } from './identity/account-sessions-end';
export { AuditLog, type AuditEntry } from './audit/log';

/** An effect that only computes data (no writes, no messages), so a form's preview may run it. */
export interface DerivingEffect {
  run: Effect;
  derives: true;
}

/** A demo account a module seeded, with its known password, for the start-up banner. */
export interface DemoAccount {
  persona: string;
  id: string;
  loginIdentifier: string;
  password: string;
  /** Created by this run (its password was set now); false when it already existed. */
  created: boolean;
}

/** What a module is given when the server starts serving a set of definitions. */
export interface ModuleContext {
  /** The database; the store's operations (re-exported above) take it or a transaction. */
  db: Kysely<Database>;
  definitions: DefinitionBundle;
  config: ServerConfig;
  catalogs: CatalogCache;
  log: FastifyBaseLogger;
  /** The identity server's password store (the built-in one's, whether it serves or not). */
  credentials: CredentialStore;
}

/** What a module's routes are given besides the context: the engine's services of this set. */
export interface ModuleServices extends ModuleContext {
  /** The document service of a backend (`/api/<backend>`); the default one without a name. */
  documents(backend?: string): DocumentService | undefined;
  /** API credentials of services, when the built-in identity server serves. */
  serviceClients?: ServiceCredentials;
  /** Where the built-in identity server issues tokens (its token endpoint). */
  tokenUrl: string;
}

/** What a started module gives the engine for one set of definitions. */
export interface StartedModule {
  /** The people the identity server signs in (one module gives them). */
  directory?: AccountDirectory;
  /** Which documents are accounts: they own themselves, and keep their holder's language. */
  accounts?: AccountLookup;
  /** Who holds which role now, for assignments. */
  roleHolders?: RoleHolders;
  /** Demo accounts of its seed (embedded default only), for the start-up banner and demo data. */
  demoAccounts?: DemoAccount[];
  /** Its routes, registered under `/api` once the document services exist. */
  routes?(api: FastifyInstance, services: ModuleServices): Promise<void>;
}

/**
 * The server-side code of one business module: the effects, guards and rules its definitions
 * name, its backends, and what it starts per set of definitions. Nothing registers on import.
 */
export interface ServerModule {
  /** The module's id, as `modules.json` names it. */
  id: string;
  effects?: Readonly<Record<string, Effect | DerivingEffect>>;
  guards?: Readonly<Record<string, Guard>>;
  /** The parameters of its guards that take any (as ENGINE_GUARD_PARAMETERS). */
  guardParameters?: Readonly<Record<string, GuardParameters>>;
  rules?: Readonly<Record<string, ServerRule>>;
  /** Backends (`"backend"` of a workflow, served at `/api/<backend>`) besides the default one. */
  backends?: readonly string[];
  /** The OpenAPI tags of its own routes, as the API reference page heads them. */
  apiTags?: readonly { name: string; description: string }[];
  /** Every role some record grants, in its seed or in the database; undefined: not known. */
  grantedRoles?: {
    seeded(workflows: readonly WorkflowDefinition[]): Promise<ReadonlySet<string> | undefined>;
    stored(
      db: Kysely<Database>,
      definitions: DefinitionBundle,
    ): Promise<ReadonlySet<string> | undefined>;
  };
  /** Starts the module for one set of definitions (seeds, services); before any route. */
  start?(context: ModuleContext): Promise<StartedModule>;
}

/** Declares a module's server code; typed, so a wrong signature fails to compile in the module. */
export function defineModule<M extends ServerModule>(module: M): M {
  return module;
}
