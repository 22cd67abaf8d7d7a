import type { Kysely } from 'kysely';
import { validEntry, type Database, type FieldProblem } from '../../../server/module';
import { dayIn, declaredProblems } from '../../../core/identity/declared-checks';
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
  // A type's entry valid now, if any; it must allow self-registration, then its checks apply.
  const checked = async (declared: DeclaredAccount['userType'], today?: string) => {
    const code = text(data, declared.pointer);
    const entry = code ? await validEntry(db, declared.catalog, code, now) : undefined;
    if (entry?.selfRegistration !== true)
      problems.push({ path: `/data${declared.pointer}`, rule: 'selfRegistrationNotAllowed' });
    else
      for (const { pointer, rule } of declaredProblems(data, entry, declared.checks, today))
        problems.push({ path: `/data${pointer}`, rule });
    return entry;
  };
  const userType = await checked(account.userType);
  const identity = account.identityType;
  if (identity && text(data, identity.pointer)) await checked(identity, dayIn(timeZone, now));
  return userType;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
