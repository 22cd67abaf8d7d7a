import type { FieldError } from '../../../core/api/errors';
import type { AccountDeclaration } from '../../../core/documents/record-declarations';
import {
  dayIn,
  declaredProblems,
  type DeclaredProblem,
} from '../../../core/identity/declared-checks';
import type { PasswordRules } from '../../../core/identity/password-policy';
import { inLanguage } from '../../../core/i18n/localized';
import type { Language } from '../../../core/i18n/translate';
import { usePortal } from '../../../portal/module';
import { ADDRESS_FIELDS, ORGANISATION_FIELDS } from './organisationChecks';

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
  /** The type's checks (checkAgent: MANDATORY...), read by the organisation fields. */
  [check: string]: unknown;
}

/** An identity type: its checks (checkIdentityValidDateFrom: MANDATORY...) govern the dates. */
export interface RegistrationIdentityType {
  code: string;
  description: string;
  [check: string]: unknown;
}

export interface RegistrationOptions {
  userTypes: RegistrationUserType[];
  identityTypes: RegistrationIdentityType[];
  /** Outside production: the page where confirmation codes can be read. */
  developerOutbox?: string;
  /** The confirmation channels switched on. */
  channels?: Partial<Record<'mobile' | 'email' | 'agency' | 'agent' | 'trader', boolean>>;
  /** By catalogue channel: the organisation field naming the entry the code goes to. */
  confirmationFields?: Partial<Record<'agency' | 'agent' | 'trader', string>>;
  /** The countries an address may name. */
  countries?: Array<{ code: string; name: string }>;
  /** The portal's time zone: its calendar day is "today" for the document's dates. */
  timeZone?: string;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The options as a reader of `language` reads them: each type's description and each country's
 * name in that language (the catalogue entries' translations), English where one has none.
 */
export function optionsInLanguage(
  options: RegistrationOptions,
  language: Language,
): RegistrationOptions {
  return {
    ...options,
    userTypes: options.userTypes.map((type) => inLanguage(type, ['description'], language)),
    identityTypes: options.identityTypes.map((type) => inLanguage(type, ['description'], language)),
    ...(options.countries && {
      countries: options.countries.map((country) => inLanguage(country, ['name'], language)),
    }),
  };
}

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
  // The address list as a whole (required): its first field.
  if (path.endsWith('/addresses')) return 'addressLine1';
  const last = path.split('/').pop() ?? '';
  return [
    ...DETAIL_FIELDS,
    'userType',
    ...IDENTITY_FIELDS,
    ...ORGANISATION_FIELDS.map(([field]) => field),
    ...ADDRESS_FIELDS,
    'code',
    'password',
    'confirm',
  ].includes(last)
    ? last
    : undefined;
}

/** The identity document's fields, as the account names them (workflows/account.json). */
export const IDENTITY_FIELDS = [
  'identityType',
  'identityNo',
  'dateOfIssuance',
  'dateOfExpiry',
] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];
export type IdentityDocument = Record<IdentityField, string>;

/**
 * The account's declaration (workflows/account.json: which field each type's check governs)
 * and the calendar day the identity document's dates are checked against: the day in the
 * portal's time zone, which the server names in the options (the same day it checks with);
 * the person's own until the options arrive.
 */
export function useDeclaredChecks(options: RegistrationOptions | null): DeclaredChecks {
  const { bundle } = usePortal();
  const account = bundle.workflows?.find((workflow) => workflow.account)?.account;
  const zone = options?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return { account, today: dayIn(zone, new Date()) };
}
export interface DeclaredChecks {
  account: AccountDeclaration | undefined;
  today: string;
}

/**
 * The basic verification of the identity document, as the person fills it: its number, which
 * every type asks for (the account schema says so too); then the identity type's declared checks
 * (core/identity/declared-checks.ts, which the server runs too), each worded for the person:
 * a date mandatory, optional or prohibited, not issued after today, not expired (a document
 * expiring today is still valid). No type chosen, nothing to verify.
 */
export function identityProblems(
  document: IdentityDocument,
  type: RegistrationIdentityType | undefined,
  { account, today }: DeclaredChecks,
  t: Translate,
): FieldError[] {
  if (!type) return [];
  const problems: FieldError[] = [];
  const name = type.description;
  if (document.identityNo.trim() === '')
    problems.push({
      path: '/identity/identityNo',
      rule: 'required',
      message: t('account.registration.numberRequired', { type: name }),
    });
  const identity = Object.fromEntries(IDENTITY_FIELDS.map((f) => [f, document[f].trim()]));
  const declared = declaredProblems({ identity }, type, account?.identityType?.checks ?? {}, today);
  for (const [check, pointer] of Object.entries(account?.identityType?.checks ?? {})) {
    const which = check.endsWith('DateFrom') ? 'issue' : 'expiry';
    const value = identity[pointer.split('/').pop() ?? ''] ?? '';
    const found = declared.find((problem) => problem.pointer === pointer);
    const key = found && DATE_WORDING[found.rule].replace('*', which);
    if (key) problems.push({ path: pointer, rule: found.rule, message: t(key, { type: name }) });
    else if (value !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(value))
      problems.push({ path: pointer, rule: 'format_date', message: t('validation.format_date') });
  }
  return problems;
}

/** How the page words each declared problem of a document date (* the date: issue, expiry). */
const DATE_WORDING: Record<DeclaredProblem['rule'], string> = {
  required: 'account.registration.*Required',
  prohibited: 'account.registration.*Prohibited',
  identityIssuedInFuture: 'account.registration.issueInFuture',
  identityExpired: 'account.registration.expired',
};

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
