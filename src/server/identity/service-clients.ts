import { UUID } from '../db/ids';
import { randomBytes } from 'node:crypto';
import { hash, verify as verifyHash } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload, ClientMetadata } from 'oidc-provider';
import { HASH_OPTIONS } from './credentials';
import type { AccountDirectory, IdentityAccount } from './directory';
import type { RevokedSessions } from './revoked-sessions';
import { identityDb, type IdentityKysely, type IdentityTables } from './tables';

/** Argon2 hashes start so; only a service client's stored secret is one. */
const HASHED_SECRET = /^\$argon2id\$/;

/**
 * The session (`sid`) every access token of one issue of credentials names: revoking or
 * replacing them ends it, as signing out ends a person's, so their tokens stop working at once.
 */
export const credentialSession = (accountId: string, issuedAt: string | Date): string =>
  `svc:${accountId}:${new Date(issuedAt).getTime()}`;

/** May hold API credentials now: a service account that may sign in. */
export const mayHoldCredentials = (account: IdentityAccount | undefined): boolean =>
  Boolean(account?.service && account.canSignIn);

/**
 * The API credentials of service accounts (specification 001): the secret is shown once and
 * stored as an argon2id hash, traded for an access token by the client-credentials grant (RFC
 * 6749 section 4.4), as a Keycloak service-account client does. The client id is the account's.
 */
export class ServiceCredentials {
  private readonly db: Kysely<IdentityTables>;

  constructor(
    db: IdentityKysely,
    private readonly directory: AccountDirectory,
    /** Told the session of credentials revoked or replaced; without it their tokens live on. */
    private readonly ended?: Pick<RevokedSessions, 'revoke'>,
  ) {
    this.db = identityDb(db);
  }

  /** The session the tokens of the account's active credentials name, if it has some. */
  async sessionOf(accountId: string): Promise<string | undefined> {
    const row = await this.activeRow(accountId);
    return row ? credentialSession(accountId, row.issued_at) : undefined;
  }

  /** What an administrator sees of the account's API credentials; never the secret. */
  async status(accountId: string) {
    const row = await this.row(accountId);
    return {
      /** The OAuth client id: the account's id. */
      clientId: accountId,
      active: Boolean(row?.secret_hash),
      issuedAt: row ? new Date(row.issued_at).toISOString() : null,
      revokedAt: row?.revoked_at ? new Date(row.revoked_at).toISOString() : null,
    };
  }

  /** New credentials for the account, replacing any it had: the secret is in clear this once. */
  async issue(accountId: string, issuedBy: string) {
    const replaced = await this.activeRow(accountId);
    // 256 bits: a secret no one guesses, in a form a shell and a header carry unquoted.
    const clientSecret = randomBytes(32).toString('base64url');
    const secretHash = await hash(clientSecret, HASH_OPTIONS);
    const issuedAt = new Date().toISOString();
    const row = {
      secret_hash: secretHash,
      issued_at: issuedAt,
      issued_by: issuedBy,
      revoked_at: null,
      revoked_by: null,
    };
    await this.db
      .insertInto('service_credential')
      .values({ account_id: accountId, ...row })
      .onConflict((c) => c.column('account_id').doUpdateSet(row))
      .execute();
    // A replaced secret is usually one that got out: what it was traded for ends with it.
    if (replaced) await this.ended?.revoke([credentialSession(accountId, replaced.issued_at)]);
    return { clientId: accountId, clientSecret, issuedAt };
  }

  /**
   * Forgets the secret and ends the tokens already traded for it; false when there was none
   * to revoke.
   */
  async revoke(accountId: string, revokedBy: string): Promise<boolean> {
    const result = await this.db
      .updateTable('service_credential')
      .set({ secret_hash: null, revoked_at: new Date().toISOString(), revoked_by: revokedBy })
      .where('account_id', '=', accountId)
      .where('secret_hash', 'is not', null)
      .returning('issued_at')
      .executeTakeFirst();
    if (!result) return false;
    await this.ended?.revoke([credentialSession(accountId, result.issued_at)]);
    return true;
  }

  private async row(accountId: string) {
    if (!UUID.test(accountId)) return undefined;
    return this.db
      .selectFrom('service_credential')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** The account's credentials row while they are active. */
  private async activeRow(accountId: string) {
    const row = await this.row(accountId);
    return row?.secret_hash ? row : undefined;
  }

  /**
   * The OAuth client of a service account with active credentials, as oidc-provider reads a
   * client: only the client-credentials grant, the secret's hash in place of the secret
   * (compared by `compareSecret`). Anything else is no client.
   */
  async client(clientId: string): Promise<ClientMetadata | undefined> {
    const row = await this.activeRow(clientId);
    if (!row?.secret_hash) return undefined;
    if (!mayHoldCredentials(await this.directory.findById(clientId))) return undefined;
    return {
      client_id: clientId,
      client_secret: row.secret_hash,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_basic',
    };
  }

  /** oidc-provider's Client storage: service clients are read here and never written. */
  adapter(): Adapter {
    const refuse = () => Promise.reject(new Error('service clients are managed by the API'));
    return {
      find: async (id: string) => (await this.client(id)) as AdapterPayload | undefined,
      upsert: refuse,
      findByUid: () => Promise.resolve(undefined),
      findByUserCode: () => Promise.resolve(undefined),
      consume: refuse,
      destroy: refuse,
      revokeByGrantId: refuse,
    };
  }
}

/** Compares a presented secret with a stored one: a service client's is an argon2id hash. */
export async function compareSecret(
  stored: string | undefined,
  presented: string,
  plain: (presented: string) => boolean | Promise<boolean>,
): Promise<boolean> {
  if (stored && HASHED_SECRET.test(stored)) return verifyHash(stored, presented).catch(() => false);
  return plain(presented);
}
