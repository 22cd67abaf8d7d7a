import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder of the project checkout, used for defaults that point at its own files. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface AuthConfig {
  /** The token issuer: our identity realm, or a Keycloak realm that replaces it. */
  issuer: string;
  audience: string;
  /** Where the issuer's public keys come from: a JWKS address, or a JWKS document on disk. */
  jwksUrl?: string;
  jwksFile?: string;
}

export interface ServerConfig {
  port: number;
  host: string;
  /** Embedded database folder (PGlite); ignored when databaseUrl is set. */
  dataDir: string;
  /** PostgreSQL connection string; when set, the server uses it instead of PGlite. */
  databaseUrl?: string;
  /** PostgreSQL schema to work in (tests give each run its own). */
  databaseSchema?: string;
  /** Folder holding catalogs/, schemas/, workflows/ and translations/. */
  definitionsDir: string;
  /** Built portal (vite build output). */
  staticDir: string;
  logLevel: string;
  bodyLimit: number;
  /** Cap on a search asking for all items (itemsPerPage -1). */
  searchMaxItems: number;
  /** Largest upload the media backend takes, and the content types it accepts. */
  mediaMaxBytes: number;
  mediaTypes: string[];
  auth: AuthConfig;
}

/** Every environment variable the server reads, with its default (README's configuration table). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = integer(env.PORT, 8080);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${port}`;
  const issuer = env.OIDC_ISSUER ?? `${publicUrl}/realms/portal`;
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    definitionsDir: path.resolve(env.DEFINITIONS_DIR ?? PROJECT_ROOT),
    staticDir: path.resolve(env.STATIC_DIR ?? path.join(PROJECT_ROOT, 'dist/portal')),
    logLevel: env.LOG_LEVEL ?? 'info',
    bodyLimit: integer(env.BODY_LIMIT_BYTES, 1024 * 1024),
    searchMaxItems: integer(env.SEARCH_MAX_ITEMS, 1000),
    mediaMaxBytes: integer(env.MEDIA_MAX_BYTES, 10 * 1024 * 1024),
    mediaTypes: (env.MEDIA_TYPES ?? 'application/pdf,image/jpeg,image/png')
      .split(',')
      .map((t) => t.trim()),
    auth: {
      issuer,
      audience: env.OIDC_AUDIENCE ?? 'portal',
      jwksFile: env.OIDC_JWKS_FILE || undefined,
      jwksUrl: env.OIDC_JWKS_FILE
        ? undefined
        : (env.OIDC_JWKS_URL ?? `${issuer}/protocol/openid-connect/certs`),
    },
  };
}

function integer(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new Error(`Expected a whole number, got "${value}"`);
  }
  return parsed;
}
