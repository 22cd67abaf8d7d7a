import { hash, verify as verifyHash } from '@node-rs/argon2';
import type { Insertable, Kysely, Updateable } from 'kysely';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import { checkPassword } from '../../core/identity/password-policy';
import type { ServerConfig } from '../config';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { PasswordPolicy } from './directory';
import {
  identityDb,
  type CredentialTable,
  type IdentityKysely,
  type IdentityTables,
} from './tables';

/**
 * argon2id (2, the library's default algorithm, named explicitly) at OWASP's floor: 19 MiB, 2
 * passes. Passwords, service secrets and one-time codes (a 6-digit code needs it most) use it.
 */
export const HASH_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

const future = (date: Date | null | undefined) =>
  date && new Date(date).getTime() > Date.now() ? new Date(date) : null;

/**
 * Passwords (argon2id), brute-force lockout and the TOTP second factor of every account,
 * in the `credential` table. The account itself lives in the directory; this only knows its id.
 */
export class CredentialStore {
  /** A hash checked when the account has none, so both cases take the same time. */
  private decoy: Promise<string> | undefined;

  private readonly db: Kysely<IdentityTables>;

  constructor(
    db: IdentityKysely,
    private readonly lockout: Pick<
      ServerConfig['identity'],
      'lockoutAttempts' | 'lockoutMinutes' | 'maxLockoutMinutes'
    >,
  ) {
    this.db = identityDb(db);
  }

  /**
   * Sets the password after checking it against the policy (ApiProblem 400 VALIDATION_FAILED
   * with one field problem per broken rule). Clears the forced change and any lock.
   */
  async setPassword(
    accountId: string,
    loginIdentifier: string,
    password: string,
    policy: PasswordPolicy | undefined,
  ): Promise<void> {
    const problems = checkPassword(policy, password, loginIdentifier);
    if (password === '') problems.unshift({ rule: 'minimumLength', params: { limit: 1 } });
    if (problems.length > 0) {
      throw new ApiProblem(
        400,
        ERROR_CODES.validationFailed,
        {},
        problems.map((p) => ({ path: '/password', rule: p.rule, params: p.params })),
      );
    }
    await this.upsert(accountId, {
      password_hash: await hash(password, HASH_OPTIONS),
      password_changed_at: new Date().toISOString(),
      failed_attempts: 0,
      locked_until: null,
      force_password_change: false,
    });
  }

  /**
   * Checks a password. Failures are counted; reaching the configured number locks the account
   * ('locked', also while the lock lasts, whatever the password), each lock since the last good
   * sign-in longer than the one before, as Keycloak's brute-force detection waits.
   */
  async verify(accountId: string, password: string): Promise<'ok' | 'wrong' | 'locked'> {
    const row = await this.row(accountId);
    if (future(row?.locked_until)) return 'locked';
    if (!row?.password_hash) {
      await this.verifyDecoy(password);
      return 'wrong';
    }
    if (await verifyHash(row.password_hash, password).catch(() => false)) {
      if (row.failed_attempts > 0 || row.locked_until || row.lockouts > 0) {
        await this.update(accountId, { failed_attempts: 0, locked_until: null, lockouts: 0 });
      }
      return 'ok';
    }
    // Count atomically; the update that reaches the limit sets the lock and restarts the count.
    const limit = this.lockout.lockoutAttempts;
    const updated = await this.db
      .updateTable('credential')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
      .where('account_id', '=', accountId)
      .returning(['failed_attempts', 'lockouts'])
      .executeTakeFirst();
    if (limit <= 0 || !updated || updated.failed_attempts < limit) return 'wrong';
    const { lockoutMinutes, maxLockoutMinutes } = this.lockout;
    const minutes = Math.min(lockoutMinutes * (updated.lockouts + 1), maxLockoutMinutes);
    await this.update(accountId, {
      failed_attempts: 0,
      lockouts: updated.lockouts + 1,
      locked_until: new Date(Date.now() + minutes * 60_000).toISOString(),
    });
    return 'locked';
  }

  /**
   * Whether the password is the account's current one, without counting a failure: a forced
   * change must not keep the password it replaces.
   */
  async isCurrent(accountId: string, password: string): Promise<boolean> {
    const stored = (await this.row(accountId))?.password_hash;
    return stored ? verifyHash(stored, password).catch(() => false) : false;
  }

  /** Spends the time of a real check, for unknown accounts. */
  async verifyDecoy(password: string): Promise<void> {
    this.decoy ??= hash('decoy password that matches nothing', HASH_OPTIONS);
    await verifyHash(await this.decoy, password).catch(() => false);
  }

  async unlock(accountId: string): Promise<void> {
    await this.update(accountId, { failed_attempts: 0, locked_until: null });
  }

  /** The account must choose a new password at its next sign-in. */
  async forcePasswordChange(accountId: string, on: boolean): Promise<void> {
    await this.upsert(accountId, { force_password_change: on });
  }

  /** The account must use (and, if needed, enrol) a TOTP second factor. */
  async forceTotp(accountId: string, on: boolean): Promise<void> {
    await this.upsert(accountId, { force_totp: on });
  }

  /**
   * Starts enrolment: a new secret (not yet active) and its otpauth:// URI for authenticator
   * apps. `confirmTotp` activates it once the person proves they can produce codes.
   */
  async enrolTotp(
    accountId: string,
    label: string,
    issuer = 'Immigration Portal',
  ): Promise<{ secret: string; uri: string }> {
    const secret = generateSecret();
    await this.upsert(accountId, { totp_secret: secret, totp_enabled: false });
    return { secret, uri: generateURI({ issuer, label, secret }) };
  }

  /** The pending (or active) secret, for showing it again during enrolment. */
  async totpSecret(accountId: string): Promise<string | null> {
    return (await this.row(accountId))?.totp_secret ?? null;
  }

  /** Activates the enrolled secret when the code matches it (the code is then used up). */
  async confirmTotp(accountId: string, code: string): Promise<boolean> {
    const secret = await this.totpSecret(accountId);
    const step = secret ? await matchingStep(secret, code, null) : null;
    if (step === null || !(await this.useStep(accountId, step))) return false;
    await this.upsert(accountId, { totp_enabled: true });
    return true;
  }

  /**
   * Checks a code of the active second factor. Each code is good once: a code of the step last
   * used, or of an earlier one, is refused (RFC 6238 section 5.2), even by two requests at once.
   */
  async verifyTotp(accountId: string, code: string): Promise<boolean> {
    const row = await this.row(accountId);
    if (!row?.totp_enabled || !row.totp_secret) return false;
    const step = await matchingStep(row.totp_secret, code, row.totp_last_step);
    return step !== null && this.useStep(accountId, step);
  }

  /** Records a code's step as used, unless that step or a later one already was. */
  private async useStep(accountId: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('credential')
      .set({ totp_last_step: step })
      .where('account_id', '=', accountId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The account's sign-in state: password, lock, second factor, what was asked of it. */
  async status(accountId: string) {
    const row = await this.row(accountId);
    return {
      hasPassword: Boolean(row?.password_hash),
      passwordChangedAt: row?.password_changed_at ? new Date(row.password_changed_at) : null,
      failedAttempts: row?.failed_attempts ?? 0,
      lockedUntil: future(row?.locked_until),
      totpEnabled: row?.totp_enabled ?? false,
      forceTotp: row?.force_totp ?? false,
      forcePasswordChange: row?.force_password_change ?? false,
    };
  }

  /** Whether the policy's passwordExpiryInDays has passed since the password was set. */
  async passwordExpired(accountId: string, policy: PasswordPolicy | undefined): Promise<boolean> {
    const days = policy?.passwordExpiryInDays;
    if (typeof days !== 'number' || days <= 0) return false;
    const { passwordChangedAt } = await this.status(accountId);
    return !!passwordChangedAt && Date.now() - passwordChangedAt.getTime() > days * 86_400_000;
  }

  private row(accountId: string) {
    return this.db
      .selectFrom('credential')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  private async update(accountId: string, values: Updateable<CredentialTable>): Promise<void> {
    await this.db
      .updateTable('credential')
      .set(values)
      .where('account_id', '=', accountId)
      .execute();
  }

  /** Sets the values, making the account's row (without a password) when it has none. */
  private async upsert(
    accountId: string,
    values: Omit<Insertable<CredentialTable>, 'account_id'>,
  ): Promise<void> {
    await this.db
      .insertInto('credential')
      .values({ account_id: accountId, password_hash: null, ...values })
      .onConflict((c) => c.column('account_id').doUpdateSet(values))
      .execute();
  }
}

/** The time step of the code when it matches the secret and comes after `after`; else null. */
async function matchingStep(
  secret: string,
  code: string,
  after: number | null,
): Promise<number | null> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  try {
    const result = await verifyTotp({
      secret,
      token,
      epochTolerance: 30,
      ...(after === null ? {} : { afterTimeStep: after }),
    });
    // A TOTP result names its time step (the functional API's type also allows HOTP's).
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}
