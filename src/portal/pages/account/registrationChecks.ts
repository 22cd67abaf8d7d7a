import type { FieldError } from '../../../core/api/errors';
import type { PasswordRules } from '../../../core/identity/password-policy';

/** The details a person gives before the confirmation code is sent. */
export const DETAIL_FIELDS = [
  'loginIdentifier',
  'firstName',
  'lastName',
  'emailAddress',
  'primaryMobileNo',
] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];
export type Details = Record<DetailField, string>;

export interface RegistrationUserType {
  code: string;
  description: string;
  passwordRules?: PasswordRules;
}

export interface RegistrationOptions {
  userTypes: RegistrationUserType[];
  identityTypes: Array<{ code: string; description: string }>;
  /** Outside production: the page where confirmation codes can be read. */
  developerOutbox?: string;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * What the identity pages say of a failed call: the server's translated message, or, when
 * nothing came back (offline), the identity and catalogue screens' own wording (specification
 * 001, section 8: `messages.unableToFetch` in its `connectid` context).
 */
export function failureText(error: { status: number; message: string }, t: Translate): string {
  return error.status === 0 ? t('messages.unableToFetch', { context: 'connectid' }) : error.message;
}

// The account schema's own patterns (schemas/account.schema.json), checked here to attach a
// plain message to each field before anything is sent; the server checks them again.
const LOGIN = /^[a-z0-9._-]{3,64}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MOBILE = /^\+?[0-9 ()-]{6,20}$/;

/** Every problem of the details step, one per field, in the order the fields are shown. */
export function detailProblems(
  values: Details,
  userType: string | null,
  t: Translate,
): FieldError[] {
  const problems: FieldError[] = [];
  const add = (path: string, rule: string, message: string) =>
    problems.push({ path, rule, message });
  for (const field of DETAIL_FIELDS) {
    const value = values[field].trim();
    if (value === '') add(`/${field}`, 'required', t('validation.required'));
    else if (field === 'loginIdentifier' && !LOGIN.test(value))
      add(`/${field}`, 'pattern', t('register.errors.loginIdentifier'));
    else if (field === 'emailAddress' && !EMAIL.test(value))
      add(`/${field}`, 'format', t('validation.format_email'));
    else if (field === 'primaryMobileNo' && !MOBILE.test(value))
      add(`/${field}`, 'mobileNumber', t('validation.mobileNumber'));
  }
  if (!userType) add('/userType', 'required', t('register.errors.userType'));
  return problems;
}

/**
 * Which of the page's fields a server problem belongs to: the registration reports paths of the
 * account (`/data/contact/primaryMobileNo`), the confirmation code endpoint `/destination`.
 */
export function fieldOf(path: string): string | undefined {
  if (path === '/destination') return 'primaryMobileNo';
  const last = path.split('/').pop() ?? '';
  return [...DETAIL_FIELDS, 'userType', 'code', 'password', 'confirm'].includes(last)
    ? last
    : undefined;
}

/** The rules of a policy the page lists, with the number each one asks for. */
export function policyRules(rules: PasswordRules | undefined): Array<[string, number]> {
  if (!rules) return [];
  const listed: Array<[string, number]> = [];
  for (const rule of [
    'minimumLength',
    'maximumLength',
    'minimumDigits',
    'minimumLowercase',
    'minimumUppercase',
    'minimumSpecial',
  ] as const) {
    const limit = rules[rule];
    if (typeof limit === 'number' && limit > 0) listed.push([rule, limit]);
  }
  if (rules.allowUsernameInPassword === false) listed.push(['usernameInPassword', 0]);
  return listed;
}
