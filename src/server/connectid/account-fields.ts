import { valueAt } from '../documents/guards';

/** The trimmed text at a JSON pointer of an account's data, or null when there is none. */
export function text(data: unknown, pointer: string): string | null {
  const value = valueAt(data, pointer);
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** The display name of an account: the service's name for service accounts, else the person's. */
export function accountDisplayName(data: unknown): string | null {
  if (text(data, '/organisation/userType') === 'SERVICE') {
    const service = text(data, '/organisation/serviceAccountName');
    if (service) return service;
  }
  const name = [text(data, '/identity/firstName'), text(data, '/identity/lastName')]
    .filter(Boolean)
    .join(' ');
  return name || text(data, '/identity/loginIdentifier');
}

