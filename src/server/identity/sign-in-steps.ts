import { generateURI } from 'otplib';
import { ApiProblem } from '../http/api-error';
import type { CredentialStatus, CredentialStore } from './credentials';
import type { AccountDirectory, IdentityAccount, SecurityFlags } from './directory';
import {
  changePasswordPage,
  policyLines,
  problemLines,
  t,
  totpEnrolPage,
  totpPage,
  type PageContext,
} from './pages';

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

/** What a step's page says went wrong: a text's key, or the lines of a broken policy. */
export interface StepError {
  key?: string;
  params?: Record<string, unknown>;
  problems?: string[];
}

/** What the sign-in knows of the account once its password is right. */
export interface SignInFacts {
  status: CredentialStatus;
  /** The administrator's flags, on the account (its security section). */
  flags: SecurityFlags | undefined;
  expiredPassword: boolean;
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
}

/**
 * How a step's form went: done (on to the next step), or refused with its page again; a refusal
 * that `counts` is a failed sign-in attempt (slowed down, counted against the address), and one
 * that `restarts` sends the person back to the password.
 */
export type StepOutcome =
  { done: true } | { error: StepError; status: number; counts?: boolean; restarts?: boolean };

/**
 * One step of a sign-in after the password, shaped like Keycloak's required actions
 * (`RequiredActionProvider`): when it applies, its page, and the processing of its form. The
 * sign-in runs the steps that apply, in the order of `SIGN_IN_STEPS`; a new one (passkeys) is
 * one more entry there.
 */
export interface SignInStep {
  id: StepId;
  applies(facts: SignInFacts): boolean;
  page(context: StepContext, state: PendingSignIn, error?: StepError): Promise<string>;
  process(
    context: StepContext,
    state: PendingSignIn,
    account: IdentityAccount,
    body: Record<string, string | undefined>,
  ): Promise<StepOutcome>;
}

export type StepId = 'totp' | 'password' | 'enrol';

const TOTP_ISSUER = 'Immigration Portal';

/** Either of the administrator's ways of asking (the credential's flag or the account's). */
export const mustChangePassword = ({ status, flags }: SignInFacts) =>
  status.forcePasswordChange || flags?.forcePasswordChange === true;
export const mustUseTotp = ({ status, flags }: SignInFacts) =>
  status.forceTotp || flags?.forceTotp === true;

/** A code from the authenticator app: checked, counted when wrong; the flag asking for it done. */
async function processCode(
  context: StepContext,
  state: PendingSignIn,
  account: IdentityAccount,
  ok: boolean,
): Promise<StepOutcome> {
  const { credentials, directory, lockoutAttempts } = context;
  if (!ok) {
    state.failures += 1;
    // Too many wrong codes: start again from the password.
    if (lockoutAttempts > 0 && state.failures >= lockoutAttempts)
      return {
        error: { key: 'totp.invalid' },
        status: 401,
        counts: true,
        restarts: true,
      };
    await context.save(state);
    return { error: { key: 'totp.invalid' }, status: 401, counts: true };
  }
  state.amr = [...new Set([...state.amr, 'otp'])];
  if (state.forcedTotp) {
    // The second factor the administrator asked for is in use: the flag has done its work.
    await credentials.forceTotp(account.id, false);
    await directory.clearSecurityFlag(account.id, 'forceTotp');
    state.forcedTotp = false;
  }
  return { done: true };
}

/** A code of the second factor already set up. */
const totp: SignInStep = {
  id: 'totp',
  applies: ({ status }) => status.totpEnabled,
  page: async ({ page, action }, _state, error) => totpPage(page, action, { error: !!error }),
  process: async (context, state, account, body) =>
    processCode(
      context,
      state,
      account,
      await context.credentials.verifyTotp(account.id, body.otp ?? ''),
    ),
};

/** A new password: asked for by the administrator (or a temporary one), or the old one expired. */
const password: SignInStep = {
  id: 'password',
  applies: (facts) => mustChangePassword(facts) || facts.expiredPassword,
  async page({ directory, page, action }, state, error) {
    const policy = await directory.policyFor(state.accountId);
    const account = await directory.findById(state.accountId);
    return changePasswordPage(page, action, {
      reason: state.passwordReason,
      login: account?.loginIdentifier,
      rules: policyLines(page, policy, true),
      problems: error?.problems ?? (error?.key ? [t(page, error.key)] : []),
      rulesBroken: !!error?.problems,
    });
  },
  async process({ credentials, directory, page }, _state, account, body) {
    const next = body.passwordNew ?? '';
    if (next !== (body.passwordConfirm ?? ''))
      return { error: { key: 'changePassword.mismatch' }, status: 400 };
    if (await credentials.isCurrent(account.id, next))
      return { error: { key: 'changePassword.sameAsOld' }, status: 400 };
    try {
      const policy = await directory.policyFor(account.id);
      await credentials.setPassword(account.id, account.loginIdentifier, next, policy);
    } catch (error) {
      if (!(error instanceof ApiProblem)) throw error;
      return { error: { problems: problemLines(page, error.fields) }, status: 400 };
    }
    await directory.clearSecurityFlag(account.id, 'forcePasswordChange');
    return { done: true };
  },
};

/** Setting up a second factor the administrator asked for: a secret, its QR code, a code. */
const enrol: SignInStep = {
  id: 'enrol',
  applies: (facts) => mustUseTotp(facts) && !facts.status.totpEnabled,
  async page({ directory, credentials, page, action, save }, state, error) {
    const found = await directory.findById(state.accountId);
    const label = found?.loginIdentifier ?? state.accountId;
    let secret = await credentials.totpSecret(state.accountId);
    let uri: string;
    if (!secret || state.enrolStarted !== true) {
      ({ secret, uri } = await credentials.enrolTotp(state.accountId, label, TOTP_ISSUER));
      await save({ ...state, enrolStarted: true });
    } else {
      uri = generateURI({ issuer: TOTP_ISSUER, label, secret });
    }
    // qrcode loads with the first enrolment, not with every start of the server.
    const { default: QRCode } = await import('qrcode');
    const qrSvg = await QRCode.toString(uri, {
      type: 'svg',
      margin: 1,
      errorCorrectionLevel: 'M',
    });
    const login = found?.loginIdentifier ?? '';
    return totpEnrolPage(page, action, {
      secret,
      uri,
      login,
      qrSvg,
      error: !!error,
    });
  },
  process: async (context, state, account, body) =>
    processCode(
      context,
      state,
      account,
      await context.credentials.confirmTotp(account.id, body.otp ?? ''),
    ),
};

/** The steps after the password, in the order a sign-in runs those that apply. */
export const SIGN_IN_STEPS: readonly SignInStep[] = [totp, password, enrol];

export const stepOf = (id: StepId | undefined) => SIGN_IN_STEPS.find((step) => step.id === id);
