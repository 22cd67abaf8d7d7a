import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import { identityDb, type IdentityKysely, type IdentityTables } from './tables';

/** Who the passkeys are for: the portal's host (RP id) and origin, as the browser names them. */
export interface RelyingParty {
  /** The host name of the portal's public address (a passkey is bound to it). */
  rpID: string;
  /** The only origin whose answers count (another site's are refused). */
  origin: string;
  rpName: string;
}

export function relyingPartyOf(publicUrl: string, rpName = 'Immigration Portal'): RelyingParty {
  const url = new URL(publicUrl);
  return { rpID: url.hostname, origin: url.origin, rpName };
}

/**
 * What a challenge was handed out for: registering a passkey, proving a second factor after
 * the password, or signing in without a password (discoverable credential, no username).
 */
export type ChallengePurpose = 'register' | 'second-factor' | 'passwordless';

/** A challenge is answered within this time, or not at all. */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** The longest name a person gives a passkey. */
export const PASSKEY_NAME_MAX = 60;

/** A passkey as its owner sees it. */
export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Synced to the person's other devices by their platform (a "multi-device" passkey). */
  backedUp: boolean;
}

/** Where the challenge may be used: for an account, within one sign-in. */
interface Binding {
  accountId?: string;
  interaction?: string;
}

/**
 * Passkeys (WebAuthn credentials, SimpleWebAuthn) of the built-in identity server: made from the
 * security page, used as a second factor after the password or to sign in without one. Every
 * challenge is stored here and deleted as it is checked, so an answer replayed finds none;
 * answers from another origin or for another RP id are refused by the verification.
 */
export class PasskeyStore {
  private readonly db: Kysely<IdentityTables>;

  constructor(
    db: IdentityKysely,
    readonly relyingParty: RelyingParty,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.db = identityDb(db);
  }

  /** The account's passkeys, oldest first. */
  async list(accountId: string): Promise<PasskeySummary[]> {
    const rows = await this.db
      .selectFrom('passkey')
      .select(['id', 'name', 'created_at', 'last_used_at', 'backed_up'])
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      createdAt: new Date(row.created_at).toISOString(),
      lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
      backedUp: row.backed_up,
    }));
  }

  async count(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('passkey')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Removes one of the account's passkeys; false when it has none of that id. */
  async remove(accountId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('passkey')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /**
   * Options for the browser to make a passkey for the account: discoverable (so it can sign in
   * without a username) with user verification, none of the account's passkeys again.
   */
  async registrationOptions(
    account: { id: string; loginIdentifier: string; name?: string | null },
    binding: Binding = {},
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.db
      .selectFrom('passkey')
      .select(['credential_id', 'transports'])
      .where('account_id', '=', account.id)
      .execute();
    const options = await generateRegistrationOptions({
      rpName: this.relyingParty.rpName,
      rpID: this.relyingParty.rpID,
      userName: account.loginIdentifier,
      userDisplayName: account.name ?? account.loginIdentifier,
      userID: new TextEncoder().encode(account.id),
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({
        id: row.credential_id,
        transports: (row.transports ?? undefined) as WebAuthnCredential['transports'],
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: CHALLENGE_TTL_MS,
    });
    await this.keep(options.challenge, 'register', { ...binding, accountId: account.id });
    return options;
  }

  /**
   * Checks the browser's answer to registration options and keeps the passkey under `name`;
   * null when refused (another origin, a used or unknown challenge, a malformed answer).
   */
  async register(
    accountId: string,
    name: string,
    response: RegistrationResponseJSON,
    binding: Binding = {},
  ): Promise<PasskeySummary | null> {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) =>
        this.consume(challenge, 'register', { ...binding, accountId }),
      expectedOrigin: this.relyingParty.origin,
      expectedRPID: this.relyingParty.rpID,
      requireUserVerification: true,
    }).catch(() => null);
    if (!verified?.verified) return null;
    const { credential, credentialBackedUp } = verified.registrationInfo;
    const row = await this.db
      .insertInto('passkey')
      .values({
        account_id: accountId,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ? JSON.stringify(credential.transports) : null,
        name,
        backed_up: credentialBackedUp,
      })
      .onConflict((c) => c.column('credential_id').doNothing())
      .returning(['id', 'name', 'created_at', 'last_used_at', 'backed_up'])
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      name: row.name,
      createdAt: new Date(row.created_at).toISOString(),
      lastUsedAt: null,
      backedUp: row.backed_up,
    };
  }

  /**
   * Options for the browser to prove a passkey: the account's own (second factor), or any
   * passkey of this site (sign-in without password: the authenticator says whose it is).
   */
  async authenticationOptions(
    purpose: Exclude<ChallengePurpose, 'register'>,
    binding: Binding = {},
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const allow =
      purpose === 'second-factor' && binding.accountId
        ? await this.db
            .selectFrom('passkey')
            .select(['credential_id', 'transports'])
            .where('account_id', '=', binding.accountId)
            .execute()
        : [];
    const options = await generateAuthenticationOptions({
      rpID: this.relyingParty.rpID,
      allowCredentials: allow.map((row) => ({
        id: row.credential_id,
        transports: (row.transports ?? undefined) as WebAuthnCredential['transports'],
      })),
      userVerification: purpose === 'passwordless' ? 'required' : 'preferred',
      timeout: CHALLENGE_TTL_MS,
    });
    await this.keep(options.challenge, purpose, binding);
    return options;
  }

  /**
   * Checks the browser's proof of a passkey: the account whose passkey it is, or null when
   * refused (unknown passkey, another account's for a second factor, another origin, a used or
   * unknown challenge, a counter gone backwards).
   */
  async authenticate(
    purpose: Exclude<ChallengePurpose, 'register'>,
    response: AuthenticationResponseJSON,
    binding: Binding = {},
  ): Promise<{ accountId: string; passkeyId: string } | null> {
    if (typeof response?.id !== 'string') return null;
    const row = await this.db
      .selectFrom('passkey')
      .selectAll()
      .where('credential_id', '=', response.id)
      .executeTakeFirst();
    // The challenge is spent even when the passkey is unknown: it is good for one answer only.
    if (!row || (binding.accountId && row.account_id !== binding.accountId)) {
      await this.spend(response);
      return null;
    }
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => this.consume(challenge, purpose, binding),
      expectedOrigin: this.relyingParty.origin,
      expectedRPID: this.relyingParty.rpID,
      credential: {
        id: row.credential_id,
        publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
        counter: Number(row.counter),
        transports: (row.transports ?? undefined) as WebAuthnCredential['transports'],
      },
      requireUserVerification: purpose === 'passwordless',
    }).catch(() => null);
    if (!verified?.verified) return null;
    await this.db
      .updateTable('passkey')
      .set({
        counter: verified.authenticationInfo.newCounter,
        last_used_at: this.now().toISOString(),
      })
      .where('id', '=', row.id)
      .execute();
    return { accountId: row.account_id, passkeyId: row.id };
  }

  /** Keeps a challenge handed out (and drops those expired). */
  private async keep(challenge: string, purpose: ChallengePurpose, binding: Binding) {
    const now = this.now();
    await this.db.deleteFrom('webauthn_challenge').where('expires_at', '<', now).execute();
    await this.db
      .insertInto('webauthn_challenge')
      .values({
        challenge,
        purpose,
        account_id: binding.accountId ?? null,
        interaction: binding.interaction ?? null,
        expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
      })
      .execute();
  }

  /**
   * Uses up the challenge an answer names: true when it was handed out for this purpose,
   * account and sign-in, and has not expired. Deleted in one statement: two answers at once
   * cannot both use it.
   */
  private async consume(challenge: string, purpose: ChallengePurpose, binding: Binding) {
    const row = await this.db
      .deleteFrom('webauthn_challenge')
      .where('challenge', '=', challenge)
      .returningAll()
      .executeTakeFirst();
    if (!row) return false;
    return (
      row.purpose === purpose &&
      new Date(row.expires_at).getTime() > this.now().getTime() &&
      row.account_id === (binding.accountId ?? null) &&
      row.interaction === (binding.interaction ?? null)
    );
  }

  /** Deletes the challenge an answer names, whatever it was for. */
  private async spend(response: AuthenticationResponseJSON) {
    try {
      const client = JSON.parse(
        Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'),
      ) as { challenge?: unknown };
      if (typeof client.challenge === 'string')
        await this.db
          .deleteFrom('webauthn_challenge')
          .where('challenge', '=', client.challenge)
          .execute();
    } catch {
      // A malformed answer names no challenge to spend.
    }
  }
}
