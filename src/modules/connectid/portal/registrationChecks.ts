import type { FieldError } from '../../../core/api/errors';
import type { JsonSchema } from '../../../core/definitions/types';
import type { AccountDeclaration } from '../../../core/documents/record-declarations';
import {
  checkOf,
  dayIn,
  declaredProblems,
  type DeclaredProblem,
} from '../../../core/identity/declared-checks';
import type { PasswordRules } from '../../../core/identity/password-policy';
import { inLanguage } from '../../../core/i18n/localized';
import type { Language } from '../../../core/i18n/translate';
import { resolvePointer } from '../../../core/rules/registry';
import { ruleName } from '../../../core/validation/field-errors';
import { usePortal } from '../../../portal/module';

/** The details a person gives before the confirmation code is sent, all required. */
export const DETAIL_FIELDS = [
  'loginIdentifier',
  'firstName',
  'lastName',
  'emailAddress',
  'primaryMobileNo',
] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];

/** The identity document's fields, as the account names them (workflows/account.json). */
export const IDENTITY_FIELDS = [
  'identityType',
  'identityNo',
  'dateOfIssuance',
  'dateOfExpiry',
] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];
export type IdentityDocument = Record<IdentityField, string>;

/** The organisation fields registration asks, where the user type's checks let it. */
export const ORGANISATION_FIELDS = [
  'institution',
  'functionalTitle',
  'agencyNo',
  'agentNo',
  'traderNo',
] as const;

/** The one address a registration may give (the account keeps a list of them). */
export const ADDRESS_FIELDS = [
  'addressType',
  'addressLine1',
  'addressLine2',
  'city',
  'postalCode',
  'country',
] as const;
export const ADDRESS_TYPES = ['RESIDENTIAL', 'POSTAL', 'BUSINESS', 'OTHER'] as const;

export const FORM_FIELDS = [
  ...DETAIL_FIELDS,
  'userType',
  ...IDENTITY_FIELDS,
  ...ORGANISATION_FIELDS,
  ...ADDRESS_FIELDS,
] as const;
export type FormField = (typeof FORM_FIELDS)[number];
/** What the registration and its correction hold, every field as typed ('' for nothing). */
export type RegistrationValues = Record<FormField, string>;
export const NO_VALUES = Object.fromEntries(
  FORM_FIELDS.map((field) => [field, '']),
) as RegistrationValues;

/** The account section a field is kept in. */
const SECTION: Partial<Record<FormField, string>> = {
  emailAddress: 'contact',
  primaryMobileNo: 'contact',
  userType: 'organisation',
  ...Object.fromEntries(ORGANISATION_FIELDS.map((field) => [field, 'organisation'])),
  ...Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, 'addresses'])),
};
export const sectionOf = (field: FormField) => SECTION[field] ?? 'identity';
/** Where the account keeps a field (`/identity/firstName`, `/addresses/0/city`). */
export const pointerOf = (field: FormField) =>
  sectionOf(field) === 'addresses' ? `/addresses/0/${field}` : `/${sectionOf(field)}/${field}`;

/** An identity type: its checks (checkIdentityValidDateFrom: MANDATORY...) govern the dates. */
export interface RegistrationIdentityType {
  code: string;
  description: string;
  [check: string]: unknown;
}

/** A user type: its checks (checkAgent: MANDATORY...) govern the organisation fields. */
export interface RegistrationUserType extends RegistrationIdentityType {
  passwordRules?: PasswordRules;
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

/** The options with each type's description and country's name in `language`, else English. */
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

/** A failed call's text: the server's message, or offline the identity screens' wording. */
export function failureText(error: { status: number; message: string }, t: Translate): string {
  return error.status === 0 ? t('messages.unableToFetch', { context: 'connectid' }) : error.message;
}

/** The page's field a server problem's path (`/data/contact/primaryMobileNo`) belongs to. */
export function fieldOf(path: string): string | undefined {
  if (path === '/destination') return 'primaryMobileNo';
  // The address list as a whole (required): its first field.
  if (path.endsWith('/addresses')) return 'addressLine1';
  const last = path.split('/').pop() ?? '';
  return [...FORM_FIELDS, 'code', 'password', 'confirm'].includes(last) ? last : undefined;
}

/** The account's declaration (workflows/account.json) and today in the portal's time zone. */
export interface DeclaredChecks {
  account: AccountDeclaration | undefined;
  today: string;
  /** The account's schema, when its definitions are here. */
  schema?: JsonSchema;
}

/** The account's declaration and schema, and today in the portal's zone (else the person's). */
export function useDeclaredChecks(options: RegistrationOptions | null): DeclaredChecks {
  const { bundle } = usePortal();
  const account = bundle.workflows?.find((workflow) => workflow.account)?.account;
  const zone = options?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const schema = bundle.schemas?.find((entity) => entity.id === 'account')?.schema;
  return { account, today: dayIn(zone, new Date()), schema };
}

/** The user type's check governing an organisation field, as the account declares it. */
export const checkNamed = (declared: DeclaredChecks, field: string) =>
  Object.entries(declared.account?.userType.checks ?? {}).find(
    ([, pointer]) => pointer === `/organisation/${field}`,
  )?.[0] ?? '';

/** The organisation fields the type lets the person fill (not prohibited). */
export const organisationFieldsOf = (
  type: Readonly<Record<string, unknown>> | undefined,
  declared: DeclaredChecks,
) =>
  ORGANISATION_FIELDS.filter(
    (field) => checkOf(type, checkNamed(declared, field)) !== 'PROHIBITED',
  );

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the account's schema says of a filled field: its pattern, e-mail format, length. */
function schemaProblem(field: FormField, value: string, declared: DeclaredChecks, t: Translate) {
  const section = sectionOf(field) === 'addresses' ? 'addresses/items' : sectionOf(field);
  const node = resolvePointer(declared.schema, `/properties/${section}/properties/${field}`) as
    JsonSchema | undefined;
  if (!node || value === '') return undefined;
  const pattern = typeof node.pattern === 'string' ? node.pattern : undefined;
  if (pattern && !new RegExp(pattern, 'u').test(value)) {
    const rule = ruleName('pattern', { pattern });
    const key =
      field === 'loginIdentifier' ? 'register.errors.loginIdentifier' : `validation.${rule}`;
    return { rule, message: t(key) };
  }
  if (node.format === 'email' && !EMAIL.test(value))
    return { rule: 'format_email', message: t('validation.format_email') };
  const limit = node.maxLength;
  if (typeof limit === 'number' && value.length > limit)
    return { rule: 'maxLength', message: t('validation.maxLength', { limit }) };
  return undefined;
}

/** The account data a registration sends: filled fields only, what the type allows. */
export function accountData(
  values: RegistrationValues,
  type: RegistrationUserType | undefined,
  hasDocument: boolean,
  declared: DeclaredChecks,
) {
  const filled = (fields: readonly FormField[]) =>
    Object.fromEntries(fields.map((f) => [f, values[f].trim()]).filter(([, v]) => v !== ''));
  const address = filled(ADDRESS_FIELDS);
  const trimmed = <F extends FormField>(fields: readonly F[]) =>
    Object.fromEntries(fields.map((f) => [f, values[f].trim()])) as Record<F, string>;
  return {
    identity: {
      ...trimmed(['loginIdentifier', 'firstName', 'lastName']),
      ...(hasDocument ? filled(IDENTITY_FIELDS) : {}),
    },
    contact: trimmed(['emailAddress', 'primaryMobileNo']),
    organisation: filled(['userType', ...organisationFieldsOf(type, declared)]),
    ...(checkOf(type, 'checkAddress') !== 'PROHIBITED' &&
      Object.keys(address).length > 0 && { addresses: [address] }),
  };
}

/**
 * Every problem of the registration, in the order the fields are shown: schema, the user type's
 * declared checks (the server runs them too), the document's verification. A begun address is
 * checked whole.
 */
export function registrationProblems(
  values: RegistrationValues,
  options: RegistrationOptions | null,
  declared: DeclaredChecks,
  t: Translate,
  destination?: string,
): FieldError[] {
  const problems: FieldError[] = [];
  const add = (field: FormField, rule: string, message: string) =>
    problems.push({ path: pointerOf(field), rule, message });
  const check = (field: FormField, required: boolean) => {
    const value = values[field].trim();
    const found = schemaProblem(field, value, declared, t);
    if (required && value === '') add(field, 'required', t('validation.required'));
    else if (found) add(field, found.rule, found.message);
  };
  for (const field of DETAIL_FIELDS) check(field, true);
  if (!values.userType) add('userType', 'required', t('register.errors.userType'));
  const type = options?.userTypes.find((u) => u.code === values.userType);
  if (type) {
    const sent = accountData(values, type, false, declared);
    const declaredHere = declaredProblems(sent, type, declared.account?.userType.checks ?? {});
    const asked = (pointer: string) => declaredHere.some((problem) => problem.pointer === pointer);
    for (const field of organisationFieldsOf(type, declared)) check(field, asked(pointerOf(field)));
    if (sent.addresses || asked('/addresses')) {
      const items = resolvePointer(declared.schema, '/properties/addresses/items/required');
      const required = Array.isArray(items) ? items : [];
      for (const field of ADDRESS_FIELDS) check(field, required.includes(field));
    }
    // The entry the code goes to must be named, even where the type makes it optional.
    const named = ORGANISATION_FIELDS.find((field) => field === destination);
    if (named && !values[named].trim() && !problems.some((p) => p.path === pointerOf(named)))
      add(named, 'required', t('register.errors.destination'));
  }
  const identityType = options?.identityTypes.find((i) => i.code === values.identityType);
  return [...problems, ...identityProblems(values, identityType, declared, t)];
}

/**
 * The identity document's live verification: its number, always required, then the identity
 * type's declared checks (the server runs them too) worded for the person. No type, no check.
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
