import type { FieldError } from '../../../core/api/errors';
import type { PasswordRules } from '../../../core/identity/password-policy';
import { inLanguage } from '../../../core/i18n/localized';
import type { Language } from '../../../core/i18n/translate';
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

/** How an identity type's check treats one of the document's dates (catalogue IdentityTypes). */
export type DateCheck = 'MANDATORY' | 'OPTIONAL' | 'PROHIBITED';

export interface RegistrationIdentityType {
  code: string;
  description: string;
  checkIdentityValidDateFrom?: DateCheck;
  checkIdentityValidDateTo?: DateCheck;
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

/** A calendar day, YYYY-MM-DD, in the person's own time zone (what a date input gives). */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The basic verification of the identity document, as the person fills it: its number, which
 * every type asks for; the identity type's checks say whether each date is mandatory, optional
 * or prohibited (checkIdentityValidDateFrom governs the date of issue, checkIdentityValidDateTo
 * the date of expiry), and a given date must make sense: not issued in the future, not expired
 * (a document expiring today is still valid).
 * The server checks the same at registration. No type chosen, nothing to verify.
 */
export function identityProblems(
  document: IdentityDocument,
  type: RegistrationIdentityType | undefined,
  today: string,
  t: Translate,
): FieldError[] {
  if (!type) return [];
  const problems: FieldError[] = [];
  const name = type.description;
  // A document is known by its number, whatever its type (the account schema says so too).
  if (document.identityNo.trim() === '')
    problems.push({
      path: '/identity/identityNo',
      rule: 'required',
      message: t('account.registration.numberRequired', { type: name }),
    });
  const dates = [
    ['dateOfIssuance', type.checkIdentityValidDateFrom, 'issue'],
    ['dateOfExpiry', type.checkIdentityValidDateTo, 'expiry'],
  ] as const;
  for (const [field, check, which] of dates) {
    const value = document[field].trim();
    const path = `/identity/${field}`;
    if (value === '') {
      if (check === 'MANDATORY')
        problems.push({
          path,
          rule: 'required',
          message: t(`account.registration.${which}Required`, { type: name }),
        });
    } else if (check === 'PROHIBITED') {
      problems.push({
        path,
        rule: 'prohibited',
        message: t(`account.registration.${which}Prohibited`),
      });
    } else if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) {
      problems.push({ path, rule: 'format_date', message: t('validation.format_date') });
    } else if (field === 'dateOfIssuance' && value > today) {
      problems.push({ path, rule: 'pastDate', message: t('account.registration.issueInFuture') });
    } else if (field === 'dateOfExpiry' && value < today) {
      problems.push({ path, rule: 'futureDate', message: t('account.registration.expired') });
    }
  }
  return problems;
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
