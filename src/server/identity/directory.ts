import type { PasswordRules } from '../../core/identity/password-policy';

/**
 * What the identity server needs to know of people, and nothing more. A module keeping accounts
 * (`StartedModule.directory`) implements it; the identity
 * server (OpenID Connect, credentials, sign-in pages) only reads through it.
 */

/** A person as tokens describe them. `id` is the token's subject. */
export interface IdentityAccount {
  id: string;
  loginIdentifier: string;
  /** Display name; for user type SERVICE, the service's entity name. */
  name: string;
  email: string | null;
  phoneNumber: string | null;
  locale: string | null;
  userType: string | null;
  /** A service (not a person): it may hold API credentials (service-clients.ts). */
  service: boolean;
  /** May sign in: accepted (reviewed) and active, not deleted. */
  canSignIn: boolean;
  /** Role codes: the units of the groups (with parents) and the account's own units. */
  roles: string[];
}

/** The password rules that apply to an account (its group's policy), all optional. */
export interface PasswordPolicy extends PasswordRules {
  code: string;
  passwordExpiryInDays?: number;
  passwordWarningInDays?: number;
}

/**
 * What an administrator asked of the account's next sign-in (the account's security section):
 * choose a new password, set up a TOTP second factor. The sign-in honours them before any
 * token is issued and clears each once done.
 */
export interface SecurityFlags {
  forcePasswordChange: boolean;
  forceTotp: boolean;
}

export interface AccountDirectory {
  findByLogin(loginIdentifier: string): Promise<IdentityAccount | undefined>;
  findById(id: string): Promise<IdentityAccount | undefined>;
  policyFor(id: string): Promise<PasswordPolicy | undefined>;
  securityFlags(id: string): Promise<SecurityFlags | undefined>;
  /** Called once the person has done what the flag asked (no-op when it is not set). */
  clearSecurityFlag(id: string, flag: keyof SecurityFlags): Promise<void>;
}
