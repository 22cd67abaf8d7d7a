import { valueAt } from '../../../server/module';
import type { FieldTest } from '../../../core/documents/record-declarations';
import type { DeclaredAccount } from './declarations';

/** The trimmed text at a JSON pointer of a record's data, or null when there is none. */
export function text(data: unknown, pointer: string): string | null {
  const value = valueAt(data, pointer);
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** The strings of the array at a JSON pointer (codes of units, roles...), or none. */
export function codes(data: unknown, pointer: string): string[] {
  const value = valueAt(data, pointer);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Whether the data passes a declared test (the text at its pointer equals its value). */
export function holds(data: unknown, test: FieldTest): boolean {
  return text(data, test.pointer) === test.equals;
}

/** The login of an account: the text at its key. */
export function accountLogin(account: DeclaredAccount, data: unknown): string | null {
  return text(data, account.key.pointer);
}

/**
 * The display name of an account: the first of the declared name rules that applies and gives
 * a name (a service account's name, then the person's), else the login.
 */
export function accountDisplayName(account: DeclaredAccount, data: unknown): string | null {
  for (const rule of account.name) {
    if (rule.when && !holds(data, rule.when)) continue;
    const name = rule.fields
      .map((field) => text(data, field))
      .filter(Boolean)
      .join(' ');
    if (name) return name;
  }
  return accountLogin(account, data);
}

/** How the account's holder is reached, as the document's owner columns keep it. */
export function accountContacts(
  account: DeclaredAccount,
  data: unknown,
): { name: string | null; email: string | null; mobile: string | null } {
  return {
    name: accountDisplayName(account, data),
    email: text(data, account.email),
    mobile: text(data, account.mobile),
  };
}

/**
 * The group an account of a user type joins: the `defaultGroup` of the type's catalogue entry,
 * else the account declaration's `fallbackGroup`.
 */
export function groupOfUserType(
  account: DeclaredAccount,
  entry: Record<string, unknown> | undefined,
): string {
  return typeof entry?.defaultGroup === 'string' ? entry.defaultGroup : account.fallbackGroup;
}
