import type { ColumnType } from 'kysely';

// Rows of the identity tables (migration 0003_identity), importing nothing: no type cycle.

/** Everything oidc-provider keeps: sessions, interactions, grants, codes, tokens. */
export interface OidcPayloadTable {
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: ColumnType<Date | null, string | null, string | null>;
  consumed_at: ColumnType<Date | null, string | null, string | null>;
}

/** Token signing keys: private JWKs, made once on first start and kept. */
export interface SigningKeyTable {
  kid: string;
  private_jwk: ColumnType<Record<string, unknown>, string, string>;
  created_at: ColumnType<Date, string | undefined, never>;
}

/** One account's credentials and sign-in state. */
export interface CredentialTable {
  account_id: string;
  password_hash: string | null;
  password_changed_at: ColumnType<Date | null, string | null, string | null>;
  failed_attempts: ColumnType<number, number | undefined, number>;
  locked_until: ColumnType<Date | null, string | null, string | null>;
  totp_secret: string | null;
  totp_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  force_totp: ColumnType<boolean, boolean | undefined, boolean>;
  force_password_change: ColumnType<boolean, boolean | undefined, boolean>;
  /** How many times the account was locked since its last good sign-in (each lock is longer). */
  lockouts: ColumnType<number, number | undefined, number>;
  /** The time step of the last TOTP code used: that one and earlier are refused. */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A service account's API credentials (client id = account id); the secret only hashed. */
export interface ServiceCredentialTable {
  account_id: string;
  secret_hash: string | null;
  issued_at: ColumnType<Date, string, string>;
  issued_by: string;
  revoked_at: ColumnType<Date | null, string | null, string | null>;
  revoked_by: string | null;
}

/** A session ended by signing out: its access tokens (by `sid`) are refused until they expire. */
export interface RevokedSessionTable {
  sid: string;
  revoked_at: ColumnType<Date, string | undefined, never>;
  expires_at: ColumnType<Date, string, string>;
}

/** Failed attempts of one client address (sign-in, confirmation codes) and its block. */
export interface AttemptThrottleTable {
  key: string;
  failures: ColumnType<number, number | undefined, number>;
  window_start: ColumnType<Date, string, string>;
  blocks: ColumnType<number, number | undefined, number>;
  blocked_until: ColumnType<Date | null, string | null | undefined, string | null>;
}

/** What a person sees of one of their sign-in sessions (sessions.ts); the session is oidc's. */
export interface AccountSessionTable {
  id: string;
  sid: string;
  session_uid: string;
  account_id: string;
  browser: string;
  os: string;
  address_class: string;
  method: string;
  signed_in_at: ColumnType<Date, string, never>;
  last_used_at: ColumnType<Date, string, string>;
}

/** A person's passkey (WebAuthn credential): its public key, counter and name (migration 0036). */
export interface PasskeyTable {
  id: ColumnType<string, string | undefined, never>;
  account_id: string;
  /** The credential's id, base64url, as the authenticator gives it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: ColumnType<number, number | undefined, number>;
  transports: ColumnType<string[] | null, string | null | undefined, string | null>;
  name: string;
  backed_up: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, string | undefined, never>;
  last_used_at: ColumnType<Date | null, string | null | undefined, string | null>;
}

/** A WebAuthn challenge handed out, good once and until it expires. */
export interface WebauthnChallengeTable {
  challenge: string;
  /** What it was asked for: registration, a second factor, a sign-in without password. */
  purpose: string;
  account_id: string | null;
  /** The sign-in (oidc-provider interaction) it belongs to, on the sign-in pages. */
  interaction: string | null;
  expires_at: ColumnType<Date, string, string>;
}

/** The key recovery codes are kept under (an HMAC), made once per database. */
export interface RecoveryCodeKeyTable {
  id: number;
  secret: string;
}

/** One recovery code of an account, as its HMAC; used once. */
export interface RecoveryCodeTable {
  account_id: string;
  code_hash: string;
  created_at: ColumnType<Date, string | undefined, never>;
  used_at: ColumnType<Date | null, string | null | undefined, string | null>;
}

/** The identity tables, to be merged into the application's Database interface. */
export interface IdentityTables {
  oidc_payload: OidcPayloadTable;
  signing_key: SigningKeyTable;
  credential: CredentialTable;
  service_credential: ServiceCredentialTable;
  revoked_session: RevokedSessionTable;
  attempt_throttle: AttemptThrottleTable;
  account_session: AccountSessionTable;
  passkey: PasskeyTable;
  webauthn_challenge: WebauthnChallengeTable;
  recovery_code_key: RecoveryCodeKeyTable;
  recovery_code: RecoveryCodeTable;
}
