import { resolvePointer } from '../rules/registry';

/**
 * The checks a user or identity type declares on an account's fields (`checkAgent: MANDATORY`...,
 * workflows/account.json). The registration page and the server run this one function, so the
 * browser refuses exactly what the server refuses, on the same day (docs/identity.md).
 */

/** How a type's check treats a field. */
export type FieldCheck = 'MANDATORY' | 'OPTIONAL' | 'PROHIBITED';

/** The time zone whose calendar day the checks use when the server names none. */
export const DEFAULT_TIME_ZONE = 'Pacific/Auckland';

/** What a check finds wrong with the field at `pointer` (a pointer into the account's data). */
export interface DeclaredProblem {
  pointer: string;
  /** The check that governs the field (`checkIdentityValidDateFrom`...). */
  check: string;
  rule: 'required' | 'prohibited' | 'identityIssuedInFuture' | 'identityExpired';
}

/** The check a type's entry gives, OPTIONAL when it gives none or something else. */
export function checkOf(type: Readonly<Record<string, unknown>> | undefined, check: string) {
  const value = type?.[check];
  return (value === 'MANDATORY' || value === 'PROHIBITED' ? value : 'OPTIONAL') as FieldCheck;
}

/**
 * The calendar day (YYYY-MM-DD) it is at `now` in `timeZone`: the day an identity document's
 * dates are compared with. en-CA writes dates as YYYY-MM-DD.
 */
export function dayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** Whether `timeZone` is one the runtime knows (a setting is checked at start). */
export function isTimeZone(timeZone: string): boolean {
  try {
    dayIn(timeZone, new Date(0));
    return true;
  } catch {
    return false;
  }
}

const filled = (value: unknown) =>
  Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null && value !== '';

/**
 * Every problem (one per field) the type's checks find: a MANDATORY field empty, a PROHIBITED one
 * given; with `today`, an issue date (`…DateFrom`) after it or an expiry (`…DateTo`) before it,
 * as calendar days. A malformed date is left to the schema's format check.
 */
export function declaredProblems(
  data: unknown,
  type: Readonly<Record<string, unknown>>,
  checks: Readonly<Record<string, string>>,
  today?: string,
): DeclaredProblem[] {
  const problems: DeclaredProblem[] = [];
  for (const [check, pointer] of Object.entries(checks)) {
    const value = resolvePointer(data, pointer);
    const given = filled(value);
    const add = (rule: DeclaredProblem['rule']) => problems.push({ pointer, check, rule });
    if (checkOf(type, check) === 'MANDATORY' && !given) add('required');
    else if (checkOf(type, check) === 'PROHIBITED' && given) add('prohibited');
    else if (today === undefined || typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value))
      continue;
    else if (check.endsWith('DateFrom') && value > today) add('identityIssuedInFuture');
    else if (check.endsWith('DateTo') && value < today) add('identityExpired');
  }
  return problems;
}
