/**
 * The signed-in session. TEMPORARY: until the identity work brings keycloak-js, the access token
 * is read from sessionStorage ('portal.accessToken') and its payload decoded without checking
 * the signature. That is safe only because the SERVER VERIFIES EVERY CALL (signature, issuer,
 * audience, expiry, roles); the browser's role checks are a convenience that hides links and
 * buttons the user could not use anyway. Replace `readSession` with a keycloak-js backed
 * implementation of the same `Session` interface.
 */

export const TOKEN_STORAGE_KEY = 'portal.accessToken';

export interface Session {
  readonly signedIn: boolean;
  /** Roles of the user, from the token's `groups` claim (Keycloak group paths trimmed). */
  readonly roles: readonly string[];
  readonly name?: string;
  readonly username?: string;
  /** The bearer token for API calls; async so a refreshing implementation fits. */
  token(): Promise<string | undefined>;
  hasAnyRole(roles: readonly string[]): boolean;
}

interface TokenClaims {
  groups?: unknown;
  name?: unknown;
  preferred_username?: unknown;
  exp?: unknown;
}

/** Decodes the payload of a JWT (base64url JSON); undefined when it cannot be read. */
export function decodeTokenPayload(token: string): TokenClaims | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof payload === 'object' && payload !== null ? (payload as TokenClaims) : undefined;
  } catch {
    return undefined;
  }
}

const SIGNED_OUT: Session = {
  signedIn: false,
  roles: [],
  token: async () => undefined,
  hasAnyRole: () => false,
};

/** The session from the stored token; signed out when there is none or it has expired. */
export function readSession(storage: Storage | undefined = globalThis.sessionStorage): Session {
  const token = storage?.getItem(TOKEN_STORAGE_KEY) ?? undefined;
  if (!token) return SIGNED_OUT;
  const claims = decodeTokenPayload(token);
  if (!claims) return SIGNED_OUT;
  if (typeof claims.exp === 'number' && claims.exp * 1000 < Date.now()) return SIGNED_OUT;
  const roles = Array.isArray(claims.groups)
    ? claims.groups
        .filter((g): g is string => typeof g === 'string')
        .map((g) => g.replace(/^\//, ''))
    : [];
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    signedIn: true,
    roles,
    name: text(claims.name),
    username: text(claims.preferred_username),
    token: async () => token,
    hasAnyRole: (wanted) => wanted.some((role) => roles.includes(role)),
  };
}
