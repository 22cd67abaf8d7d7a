import type { Kysely } from 'kysely';
import { validEntry, type Database, type FieldProblem } from '../../../server/module';
import {
  dayIn,
  declaredProblems,
  type DeclaredProblem,
} from '../../../core/identity/declared-checks';
import { text } from './account-fields';
import type { DeclaredAccount } from './declarations';

/**
 * What the data's user and identity types allow (self-registration) and require, the document's
 * dates as of the portal's calendar day (the page runs the same core/identity/declared-checks.ts),
 * for registration and its correction alike. Gives the user type's entry valid now, if any.
 */
export async function typeProblems(
  db: Kysely<Database>,
  account: DeclaredAccount,
  data: Record<string, unknown>,
  now: Date,
  timeZone: string,
  problems: FieldProblem[],
): Promise<Record<string, unknown> | undefined> {
  const found = (list: DeclaredProblem[]) =>
    problems.push(...list.map(({ pointer, rule }) => ({ path: `/data${pointer}`, rule })));
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
    found(declaredProblems(data, userType, account.userType.checks));
  }
  const identity = account.identityType;
  const identityTypeCode = identity ? text(data, identity.pointer) : undefined;
  if (identity && identityTypeCode) {
    const identityType = await validEntry(db, identity.catalog, identityTypeCode, now);
    if (!identityType || identityType.selfRegistration !== true) {
      problems.push({ path: `/data${identity.pointer}`, rule: 'selfRegistrationNotAllowed' });
    } else {
      found(declaredProblems(data, identityType, identity.checks, dayIn(timeZone, now)));
    }
  }
  return userType;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
