import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { TextTree } from '../../src/core/i18n/translate';
import { CONTENT_SECURITY_POLICY } from '../../src/server/app';
import { configFromEnv, PROJECT_ROOT, type ServerConfig } from '../../src/server/config';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { up as identityMigration } from '../../src/server/db/migrations/0003_identity';
import { CredentialStore } from '../../src/server/identity/credentials';
import type {
  AccountDirectory,
  IdentityAccount,
  PasswordPolicy,
  SecurityFlags,
} from '../../src/server/identity/directory';
import { identityPlugin } from '../../src/server/identity/plugin';
import { challengeCodes } from '../../src/server/identity/reset-codes';
import type { IdentityTables } from '../../src/server/identity/tables';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases';

/** Accounts kept in memory, found by login case-insensitively, as the connectid module does. */
export class MemoryDirectory implements AccountDirectory {
  readonly accounts = new Map<string, IdentityAccount>();
  readonly policies = new Map<string, PasswordPolicy>();
  /** What an administrator asked of each account's next sign-in. */
  readonly flags = new Map<string, SecurityFlags>();

  add(
    account: Partial<IdentityAccount> & { id: string; loginIdentifier: string },
  ): IdentityAccount {
    const full: IdentityAccount = {
      name: account.loginIdentifier,
      email: null,
      phoneNumber: null,
      locale: null,
      userType: null,
      service: false,
      canSignIn: true,
      roles: [],
      ...account,
    };
    this.accounts.set(full.id, full);
    return full;
  }

  async findByLogin(loginIdentifier: string) {
    const wanted = loginIdentifier.toLowerCase();
    return [...this.accounts.values()].find((a) => a.loginIdentifier.toLowerCase() === wanted);
  }

  async findById(id: string) {
    return this.accounts.get(id);
  }

  async policyFor(id: string) {
    return this.policies.get(id);
  }

  async securityFlags(id: string) {
    if (!this.accounts.has(id)) return undefined;
    return this.flags.get(id) ?? { forcePasswordChange: false, forceTotp: false };
  }

  async clearSecurityFlag(id: string, flag: keyof SecurityFlags) {
    const flags = this.flags.get(id);
    if (flags) this.flags.set(id, { ...flags, [flag]: false });
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function loadTexts(): Promise<Record<'en' | 'fr', TextTree>> {
  const read = async (file: string) =>
    JSON.parse(
      await fs.readFile(path.join(PROJECT_ROOT, 'translations', file), 'utf8'),
    ) as TextTree;
  return {
    en: { ...(await read('en.json')), signin: await read('en/signin.json') },
    fr: { ...(await read('fr.json')), signin: await read('fr/signin.json') },
  };
}

/** Creates the identity tables unless the application's migrations already did. */
export async function ensureIdentityTables(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{
    name: string | null;
  }>`select to_regclass('oidc_payload')::text as name`.execute(db);
  if (!rows[0]?.name) await identityMigration(db);
}

export interface IdentityHarness {
  publicUrl: string;
  issuer: string;
  config: ServerConfig;
  directory: MemoryDirectory;
  readonly app: FastifyInstance;
  readonly handle: DatabaseHandle;
  readonly db: Kysely<IdentityTables>;
  readonly credentials: CredentialStore;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The identity plugin alone on a Fastify instance listening on a real port. */
export async function startIdentityServer(
  kind: DatabaseKind,
  identity: Partial<ServerConfig['identity']> = {},
): Promise<IdentityHarness> {
  const database: TestDatabase = await createTestDatabase(kind);
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const base = configFromEnv({});
  const config: ServerConfig = {
    ...base,
    publicUrl,
    dataDir: database.dataDir,
    databaseUrl: database.databaseUrl,
    databaseSchema: database.schema,
    identity: { ...base.identity, lockoutAttempts: 3, lockoutMinutes: 15, ...identity },
    auth: { issuer: `${publicUrl}/realms/portal`, audience: 'portal' },
  };
  const texts = await loadTexts();
  const directory = new MemoryDirectory();
  let app: FastifyInstance;
  let handle: DatabaseHandle;
  let credentials: CredentialStore;

  const boot = async () => {
    handle = await openDatabase({
      databaseUrl: config.databaseUrl,
      schema: config.databaseSchema,
      dataDir: config.dataDir,
    });
    await ensureIdentityTables(handle.db as unknown as Kysely<unknown>);
    const db = handle.db as unknown as Kysely<IdentityTables>;
    credentials = new CredentialStore(db, config.identity);
    app = Fastify({ logger: false, trustProxy: true });
    // The portal's own security headers, so the pages are tested under its strict CSP.
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
      crossOriginEmbedderPolicy: false,
    });
    await app.register(identityPlugin, {
      db,
      directory,
      credentials,
      config,
      texts,
      codes: challengeCodes(handle.db),
    });
    await app.listen({ port, host: '127.0.0.1' });
  };
  await boot();

  return {
    publicUrl,
    issuer: `${publicUrl}/realms/portal`,
    config,
    directory,
    get app() {
      return app;
    },
    get handle() {
      return handle;
    },
    get db() {
      return handle.db as unknown as Kysely<IdentityTables>;
    },
    get credentials() {
      return credentials;
    },
    async restart() {
      await app.close();
      await handle.close();
      await boot();
    },
    async close() {
      await app.close();
      await handle.close();
      await database.cleanup();
    },
  };
}
