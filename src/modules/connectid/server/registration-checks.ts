import type { Kysely } from 'kysely';
import { validEntry, type Database, valueAt, type FieldProblem } from '../../../server/module';
import { text } from './account-fields';
import type { DeclaredAccount } from './declarations';

/**
 * What the user type and identity type of the data allow (self-registration) and require: the
 * fields each type's checks make mandatory or prohibited. Registration and the correction of a
 * returned registration check the same. Gives the user type's entry valid now, if any.
 */
export async function typeProblems(
  db: Kysely<Database>,
  account: DeclaredAccount,
  data: Record<string, unknown>,
  now: Date,
  problems: FieldProblem[],
): Promise<Record<string, unknown> | undefined> {
  const userTypeCode = text(data, account.userType.pointer);
  const userType = userTypeCode
    ? await validEntry(db, account.userType.catalog, userTypeCode, now)
    : undefined;
  if (!userType || userType.selfRegistration !== true) {
    problems.push({
      path: `/data${account.userType.pointer}`,
      rule: 'selfRegistrationNotAllowed',
    });
  } else {
    checkFields(data, userType, account.userType.checks, problems);
  }
  const identity = account.identityType;
  const identityTypeCode = identity ? text(data, identity.pointer) : undefined;
  if (identity && identityTypeCode) {
    const identityType = await validEntry(db, identity.catalog, identityTypeCode, now);
    if (!identityType || identityType.selfRegistration !== true) {
      problems.push({ path: `/data${identity.pointer}`, rule: 'selfRegistrationNotAllowed' });
    } else {
      checkFields(data, identityType, identity.checks, problems);
      documentDateProblems(data, identity.checks, now, problems);
    }
  }
  return userType;
}

/**
 * The sense checks of an identity document's validity dates: the date the check
 * `…DateFrom` governs (issuance) may not be in the future, the one `…DateTo` governs (expiry)
 * may not be in the past, a document expiring today still being valid. Dates are compared as
 * calendar days (YYYY-MM-DD, UTC); a malformed date is left to the schema's own format check.
 */
function documentDateProblems(
  data: Record<string, unknown>,
  checks: Readonly<Record<string, string>>,
  now: Date,
  problems: FieldProblem[],
): void {
  const today = now.toISOString().slice(0, 10);
  for (const [check, pointer] of Object.entries(checks)) {
    const value = valueAt(data, pointer);
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) continue;
    // Already refused as prohibited: one problem per field is enough.
    if (problems.some((p) => p.path === `/data${pointer}`)) continue;
    if (check.endsWith('DateFrom') && value > today)
      problems.push({ path: `/data${pointer}`, rule: 'identityIssuedInFuture' });
    if (check.endsWith('DateTo') && value < today)
      problems.push({ path: `/data${pointer}`, rule: 'identityExpired' });
  }
}

function checkFields(
  data: Record<string, unknown>,
  type: Record<string, unknown>,
  checks: Readonly<Record<string, string>>,
  problems: FieldProblem[],
): void {
  for (const [check, pointer] of Object.entries(checks)) {
    const value = valueAt(data, pointer);
    const filled = Array.isArray(value)
      ? value.length > 0
      : value !== undefined && value !== null && value !== '';
    if (type[check] === 'MANDATORY' && !filled)
      problems.push({ path: `/data${pointer}`, rule: 'required' });
    if (type[check] === 'PROHIBITED' && filled)
      problems.push({ path: `/data${pointer}`, rule: 'prohibited' });
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
