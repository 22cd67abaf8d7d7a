/**
 * Who is signed in, with which roles, and how to sign in or out (keycloak.ts). The browser's
 * role checks only hide what the user could not use: the server verifies every call.
 */

export interface Session {
  readonly signedIn: boolean;
  /** Single sign-on is still starting (signedIn is false meanwhile). */
  readonly pending?: boolean;
  /** Roles of the user, from the token's `groups` claim (Keycloak group paths, leading '/' trimmed). */
  readonly roles: readonly string[];
  readonly name?: string;
  readonly username?: string;
  /** The token's subject: the id of the person's account. */
  readonly subject?: string;
  /** The language the person's account prefers (`locale`), when it says. */
  readonly locale?: string;
  /** The account's user type (`user_type`: OFFICER, AGENT, TRADER, SERVICE...). */
  readonly userType?: string;
  readonly email?: string;
  readonly phoneNumber?: string;
  /** The bearer token for API calls (refreshed first when about to expire); undefined when signed out. */
  token(): Promise<string | undefined>;
  hasAnyRole(roles: readonly string[]): boolean;
  /** Sends the browser to sign in, back at `redirectPath` (or `/`) once signed in. */
  login(redirectPath?: string): void;
  /** Ends the single sign-on session and comes back to the public home page. */
  logout(): void;
  /** The identity server's own account page, when signed in and the server offers one. */
  readonly accountUrl?: string;
}

/** Role codes from a `groups` claim: strings only, a leading '/' (Keycloak group path) trimmed. */
export function rolesFromGroups(groups: unknown): string[] {
  if (!Array.isArray(groups)) return [];
  return groups
    .filter((group): group is string => typeof group === 'string')
    .map((group) => group.replace(/^\//, ''))
    .filter((role) => role.length > 0);
}

/** What a session reads from the access token. */
export interface SessionClaims {
  sub?: unknown;
  groups?: unknown;
  name?: unknown;
  preferred_username?: unknown;
  locale?: unknown;
  user_type?: unknown;
  email?: unknown;
  phone_number?: unknown;
}

type SessionActions = Pick<Session, 'token' | 'login' | 'logout'> & {
  accountUrl?: () => string | undefined;
};

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** A signed-in session from the token's claims. */
export function signedInSession(claims: SessionClaims, actions: SessionActions): Session {
  const roles = rolesFromGroups(claims.groups);
  return {
    subject: text(claims.sub),
    signedIn: true,
    roles,
    name: text(claims.name),
    username: text(claims.preferred_username),
    locale: text(claims.locale),
    userType: text(claims.user_type),
    email: text(claims.email),
    phoneNumber: text(claims.phone_number),
    token: actions.token,
    hasAnyRole: (wanted) => wanted.some((role) => roles.includes(role)),
    login: actions.login,
    logout: actions.logout,
    get accountUrl() {
      return actions.accountUrl?.();
    },
  };
}

/** The signed-out session; `login` is how this portal reaches the sign-in page. */
export function signedOutSession(login: (redirectPath?: string) => void): Session {
  return {
    signedIn: false,
    roles: [],
    token: async () => undefined,
    hasAnyRole: () => false,
    login,
    logout: () => undefined,
  };
}

/** True when two sessions show the same user with the same roles (so a refresh changes nothing). */
export function sameIdentity(a: Session, b: Session): boolean {
  return (
    a.signedIn === b.signedIn &&
    a.name === b.name &&
    a.username === b.username &&
    a.roles.length === b.roles.length &&
    a.roles.every((role, index) => role === b.roles[index])
  );
}
