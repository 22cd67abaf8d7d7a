import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { generateURI } from 'otplib';
import { translate } from '../../core/i18n/translate';
import { ApiProblem } from '../http/api-error';
import type { CredentialStore } from './credentials';
import type { AccountDirectory, IdentityAccount, SecurityFlags } from './directory';
import {
  changePasswordPage,
  passkeyStepPage,
  totpEnrolPage,
  totpPage,
  type PageContext,
  type PageError,
} from './pages';
import type { PasskeyStore } from './passkeys';
import type { RecoveryCodes } from './recovery-codes';

/** What happens between a correct password and the end of the sign-in, kept per interaction. */
export interface PendingSignIn {
  accountId: string;
  /** Steps still to do, in order (their `id`s). */
  steps: StepId[];
  passwordReason: 'required' | 'expired';
  /** The administrator asked for a second factor (account flag): cleared once it is used. */
  forcedTotp?: boolean;
  amr: string[];
  failures: number;
  [key: string]: unknown;
}

/** What the sign-in knows of the account once its password is right. */
export interface SignInFacts {
  status: Awaited<ReturnType<CredentialStore['status']>>;
  /** The administrator's flags, on the account (its security section). */
  flags: SecurityFlags | undefined;
  expiredPassword: boolean;
  /** How many passkeys the account has (none when passkeys are not served). */
  passkeys?: number;
}

/** What a step is given to draw its page or process its form. */
export interface StepContext {
  directory: AccountDirectory;
  credentials: CredentialStore;
  page: PageContext;
  /** Where the step's form posts. */
  action: string;
  /** Keeps the sign-in's state between two requests. */
  save(state: PendingSignIn): Promise<void>;
  /** Wrong codes before the sign-in starts again from the password (0: never). */
  lockoutAttempts: number;
  /** The sign-in's interaction (a passkey's challenge is good for this sign-in only). */
  interaction?: string;
  passkeys?: PasskeyStore;
  recoveryCodes?: RecoveryCodes;
  /**
   * Records that a recovery code was spent (`sign-in.recovery-code`): a code is gone for good, so
   * its use is a line of its own; the sign-in itself is one line when it ends (its factors).
   */
  recordRecoveryCode?(account: IdentityAccount): Promise<void>;
}

/**
 * How a step's form went: done (on to the next step), or refused with its page again; a refusal
 * that `counts` is a failed sign-in attempt (slowed down, counted against the address), and one
 * that `restarts` sends the person back to the password.
 */
export type StepOutcome =
  { done: true } | { error: PageError; status: number; counts?: boolean; restarts?: boolean };

/**
 * A sign-in step after the password, like Keycloak's required actions: when it applies, its
 * page, its form. Those that apply run in `SIGN_IN_STEPS` order; a new one is one more entry.
 */
export interface SignInStep {
  id: StepId;
  applies(facts: SignInFacts): boolean;
  page(context: StepContext, state: PendingSignIn, error?: PageError): Promise<string>;
  process(
    context: StepContext,
    state: PendingSignIn,
    account: IdentityAccount,
    body: Record<string, string | undefined>,
  ): Promise<StepOutcome>;
}

export type StepId = 'passkey' | 'totp' | 'password' | 'enrol';

const TOTP_ISSUER = 'Immigration Portal';

/** Either of the administrator's ways of asking (the credential's flag or the account's). */
export const mustChangePassword = ({ status, flags }: SignInFacts) =>
  status.forcePasswordChange || flags?.forcePasswordChange === true;
export const mustUseTotp = ({ status, flags }: SignInFacts) =>
  status.forceTotp || flags?.forceTotp === true;

/** A code from the authenticator app (`check`ed): counted when wrong; the flag asking for it done. */
const processCode =
  (check: 'verifyTotp' | 'confirmTotp'): SignInStep['process'] =>
  async (context, state, account, body) => {
    if (!(await context.credentials[check](account.id, body.otp ?? '')))
      return refusedFactor(context, state, 'totp.invalid');
    state.amr = [...new Set([...state.amr, 'otp'])];
    await secondFactorUsed(context, state, account);
    return { done: true };
  };

/** The second factor the administrator asked for is in use: the flag has done its work. */
async function secondFactorUsed(
  { credentials, directory }: Pick<StepContext, 'credentials' | 'directory'>,
  state: PendingSignIn,
  account: IdentityAccount,
) {
  // Either factor of the second-factor step will do: the other's step is not asked after it.
  state.steps = [state.steps[0] as StepId, ...state.steps.slice(1).filter((s) => s !== 'totp')];
  if (!state.forcedTotp) return;
  await credentials.forceTotp(account.id, false);
  await directory.clearSecurityFlag(account.id, 'forceTotp');
  state.forcedTotp = false;
}

/** A refused second factor: counted, and too many start the sign-in again from the password. */
async function refusedFactor(
  context: StepContext,
  state: PendingSignIn,
  key: string,
): Promise<StepOutcome> {
  state.failures += 1;
  const restarts = context.lockoutAttempts > 0 && state.failures >= context.lockoutAttempts;
  if (!restarts) await context.save(state);
  return { error: { key }, status: 401, counts: true, restarts };
}

/**
 * A step's form, or a recovery code sent instead (`method=recovery`): a code of the account
 * not used before stands for the second factor, once.
 */
const orRecoveryCode =
  (process: SignInStep['process']): SignInStep['process'] =>
  async (context, state, account, body) => {
    if (body.method !== 'recovery') return process(context, state, account, body);
    const used = await context.recoveryCodes?.use(account.id, body.recoveryCode ?? '');
    if (!used) return refusedFactor(context, state, 'recovery.invalid');
    state.amr = [...new Set([...state.amr, 'otp'])];
    await secondFactorUsed(context, state, account);
    await context.recordRecoveryCode?.(account);
    return { done: true };
  };

/** The browser's WebAuthn answer, as the page's script posted it (JSON), or undefined. */
function answerOf<T>(body: Record<string, string | undefined>): T | undefined {
  try {
    const parsed: unknown = JSON.parse(body.credential ?? '');
    return parsed && typeof parsed === 'object' ? (parsed as T) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The second factor of an account with passkeys: its passkey (the page's button), or its
 * authenticator app's code when it has one too, or a recovery code. Keycloak's WebAuthn
 * authenticator with the OTP form as an alternative.
 */
const passkey: SignInStep = {
  id: 'passkey',
  applies: (facts) => (facts.passkeys ?? 0) > 0,
  async page({ page, action, recoveryCodes }, state, error) {
    const remaining = (await recoveryCodes?.status(state.accountId))?.remaining ?? 0;
    return passkeyStepPage(page, action, {
      error,
      totp: state.steps.includes('totp'),
      recovery: remaining > 0,
    });
  },
  process: orRecoveryCode(async (context, state, account, body) => {
    if (body.method === 'totp') {
      if (!state.steps.includes('totp')) return { error: { key: 'totp.invalid' }, status: 400 };
      return processCode('verifyTotp')(context, state, account, body);
    }
    const answer = answerOf<AuthenticationResponseJSON>(body);
    const proved =
      answer &&
      (await context.passkeys?.authenticate('second-factor', answer, {
        accountId: account.id,
        interaction: context.interaction,
      }));
    if (!proved) return refusedFactor(context, state, 'passkey.invalid');
    state.amr = [...new Set([...state.amr, 'hwk'])];
    await secondFactorUsed(context, state, account);
    return { done: true };
  }),
};

/** A code of the second factor already set up. */
const totp: SignInStep = {
  id: 'totp',
  applies: ({ status }) => status.totpEnabled,
  async page({ page, action, recoveryCodes }, state, error) {
    const remaining = (await recoveryCodes?.status(state.accountId))?.remaining ?? 0;
    return totpPage(page, action, {
      error: !!error,
      errorKey: error?.key,
      recovery: remaining > 0,
    });
  },
  process: orRecoveryCode(processCode('verifyTotp')),
};

/** A new password: asked for by the administrator (or a temporary one), or the old one expired. */
const password: SignInStep = {
  id: 'password',
  applies: (facts) => mustChangePassword(facts) || facts.expiredPassword,
  async page({ directory, page, action }, state, error) {
    const account = await directory.findById(state.accountId);
    return changePasswordPage(page, action, {
      reason: state.passwordReason,
      login: account?.loginIdentifier,
      policy: await directory.policyFor(state.accountId),
      error,
      differentFromCurrent: true,
    });
  },
  async process(context, _state, account, body) {
    const error = await chooseNewPassword(context, account, body, true);
    return error ? { error, status: 400 } : { done: true };
  },
};

/**
 * Sets the password a new-password form chose (twice the same, under the account's policy,
 * with `notCurrent` not the one it replaces); the error to show when refused.
 */
export async function chooseNewPassword(
  { credentials, directory }: Pick<StepContext, 'credentials' | 'directory'>,
  account: IdentityAccount,
  body: Record<string, string | undefined>,
  notCurrent = false,
): Promise<PageError | undefined> {
  const next = body.passwordNew ?? '';
  if (next !== (body.passwordConfirm ?? '')) return { key: 'changePassword.mismatch' };
  if (notCurrent && (await credentials.isCurrent(account.id, next)))
    return { key: 'changePassword.sameAsOld' };
  try {
    const policy = await directory.policyFor(account.id);
    await credentials.setPassword(account.id, account.loginIdentifier, next, policy);
  } catch (error) {
    if (!(error instanceof ApiProblem)) throw error;
    return { problems: error.fields ?? [] };
  }
  // The person chose their own password: an administrator's "change it" is done.
  await directory.clearSecurityFlag(account.id, 'forcePasswordChange');
  return undefined;
}

/** Setting up a second factor the administrator asked for: a secret, its QR code, a code. */
const enrol: SignInStep = {
  id: 'enrol',
  applies: (facts) => mustUseTotp(facts) && !facts.status.totpEnabled && !facts.passkeys,
  async page({ directory, credentials, page, action, save, passkeys }, state, error) {
    const found = await directory.findById(state.accountId);
    const label = found?.loginIdentifier ?? state.accountId;
    // A secret of this sign-in's enrolment is shown again; otherwise a new one.
    let secret = state.enrolStarted === true ? await credentials.totpSecret(state.accountId) : null;
    if (!secret) {
      ({ secret } = await credentials.enrolTotp(state.accountId, label, TOTP_ISSUER));
      await save({ ...state, enrolStarted: true });
    }
    const uri = generateURI({ issuer: TOTP_ISSUER, label, secret });
    // qrcode loads with the first enrolment, not with every start of the server.
    const { default: QRCode } = await import('qrcode');
    const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    const login = found?.loginIdentifier ?? '';
    return totpEnrolPage(page, action, {
      secret,
      uri,
      login,
      qrSvg,
      error: !!error,
      errorKey: error?.key,
      passkey: !!passkeys,
    });
  },
  async process(context, state, account, body) {
    if (body.method !== 'passkey') return processCode('confirmTotp')(context, state, account, body);
    // A passkey made here satisfies the administrator's demand as well as an app would.
    const answer = answerOf<RegistrationResponseJSON>(body);
    const name = translate(context.page.texts, context.page.language, 'signin.passkey.defaultName');
    const made =
      answer &&
      (await context.passkeys?.register(account.id, name, answer, {
        interaction: context.interaction,
      }));
    if (!made) return refusedFactor(context, state, 'passkey.invalid');
    state.amr = [...new Set([...state.amr, 'hwk'])];
    await secondFactorUsed(context, state, account);
    return { done: true };
  },
};

/** The steps after the password, in the order a sign-in runs those that apply. */
export const SIGN_IN_STEPS: readonly SignInStep[] = [passkey, totp, password, enrol];

/** The steps that prove a second factor: a sign-in with a passkey alone has proved it. */
export const SECOND_FACTOR_STEPS: readonly StepId[] = ['passkey', 'totp', 'enrol'];

export const stepOf = (id: StepId | undefined) => SIGN_IN_STEPS.find((step) => step.id === id);
