import type { FieldError } from '../../../core/api/errors';
import { checkOf, declaredProblems } from '../../../core/identity/declared-checks';

/**
 * The organisation fields a user type's checks govern, with the check naming each
 * (workflows/account.json, `account.userType.checks`), in the order the page shows them.
 */
export const ORGANISATION_FIELDS = [
  ['institution', 'checkInstitution'],
  ['functionalTitle', 'checkFunctionalTitle'],
  ['agencyNo', 'checkAgency'],
  ['agentNo', 'checkAgent'],
  ['traderNo', 'checkTrader'],
] as const;
export type OrganisationField = (typeof ORGANISATION_FIELDS)[number][0];
export type Organisation = Record<OrganisationField, string>;

/** The one address a registration may give (the account keeps a list of them). */
export const ADDRESS_FIELDS = [
  'addressType',
  'addressLine1',
  'addressLine2',
  'city',
  'postalCode',
  'country',
] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type Address = Record<AddressField, string>;

/** Nothing typed yet. */
export const NO_ORGANISATION: Organisation = {
  institution: '',
  functionalTitle: '',
  agencyNo: '',
  agentNo: '',
  traderNo: '',
};
export const NO_ADDRESS: Address = {
  addressType: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  postalCode: '',
  country: '',
};
export const ADDRESS_TYPES = ['RESIDENTIAL', 'POSTAL', 'BUSINESS', 'OTHER'] as const;

/** A user type's checks as the registration options give them. */
export type UserTypeChecks = Partial<Record<string, unknown>>;

export { checkOf };

/** The organisation fields the type lets the person fill (not prohibited). */
export const organisationFieldsOf = (type: UserTypeChecks | undefined) =>
  ORGANISATION_FIELDS.filter(([, check]) => checkOf(type, check) !== 'PROHIBITED');

// The account schema's limits (schemas/account.schema.json); the server checks them again.
const MAX_LENGTH: Record<OrganisationField | AddressField, number> = {
  institution: 100,
  functionalTitle: 100,
  agencyNo: 5,
  agentNo: 17,
  traderNo: 17,
  addressType: 20,
  addressLine1: 200,
  addressLine2: 200,
  city: 35,
  postalCode: 12,
  country: 2,
};
const POSTAL_CODE = /^[A-Za-z0-9 -]+$/;

type Translate = (key: string, options?: Record<string, unknown>) => string;

export const isBlankAddress = (address: Address) =>
  ADDRESS_FIELDS.every((field) => address[field].trim() === '');

/**
 * Every problem of the organisation fields and the address: what the type's declared checks
 * find in what would be sent (core/identity/declared-checks.ts, which the server runs too: a
 * mandatory field left empty, an address the type asks for), the schema's limits, and an address
 * complete (type, line 1, city, country) once asked for or begun.
 */
export function organisationProblems(
  organisation: Organisation,
  address: Address,
  type: UserTypeChecks | undefined,
  checks: Readonly<Record<string, string>>,
  t: Translate,
): FieldError[] {
  if (!type) return [];
  const sent = organisationData(null, organisation, address, type);
  const declared = declaredProblems(sent, type, checks);
  const problems: FieldError[] = [];
  const tooLong = (field: OrganisationField | AddressField, value: string) =>
    value.length > MAX_LENGTH[field]
      ? t('validation.maxLength', { limit: MAX_LENGTH[field] })
      : null;
  for (const [field] of organisationFieldsOf(type)) {
    const path = `/organisation/${field}`;
    if (declared.some((problem) => problem.pointer === path))
      problems.push({ path, rule: 'required', message: t('validation.required') });
    const long = tooLong(field, organisation[field].trim());
    if (long) problems.push({ path, rule: 'maxLength', message: long });
  }
  // An address asked for (declared) or begun is checked whole.
  if (!sent.addresses && !declared.some((problem) => problem.pointer === '/addresses'))
    return problems;
  for (const field of ADDRESS_FIELDS) {
    const value = address[field].trim();
    const path = `/addresses/0/${field}`;
    if (value === '' && ['addressType', 'addressLine1', 'city', 'country'].includes(field))
      problems.push({ path, rule: 'required', message: t('validation.required') });
    else if (field === 'postalCode' && value !== '' && !POSTAL_CODE.test(value))
      problems.push({ path, rule: 'pattern', message: t('validation.pattern') });
    else {
      const long = tooLong(field, value);
      if (long) problems.push({ path, rule: 'maxLength', message: long });
    }
  }
  return problems;
}

/** The organisation section and the address list as the account stores them: filled fields only. */
export function organisationData(
  userType: string | null,
  organisation: Organisation,
  address: Address,
  type: UserTypeChecks | undefined,
): { organisation: Record<string, string>; addresses?: Array<Record<string, string>> } {
  const filled = (entries: Array<[string, string]>) =>
    Object.fromEntries(entries.map(([k, v]) => [k, v.trim()]).filter(([, v]) => v !== ''));
  const allowed = organisationFieldsOf(type).map(([field]) => field);
  const result: {
    organisation: Record<string, string>;
    addresses?: Array<Record<string, string>>;
  } = {
    organisation: {
      ...(userType ? { userType } : {}),
      ...filled(allowed.map((field) => [field, organisation[field]])),
    },
  };
  if (checkOf(type, 'checkAddress') !== 'PROHIBITED' && !isBlankAddress(address))
    result.addresses = [filled(ADDRESS_FIELDS.map((field) => [field, address[field]]))];
  return result;
}
