/**
 * The session backed by keycloak-js (unmodified) against the realm in `auth-config.ts`
 * (specification 000, section 7):
 *
 * 1. the realm's public description (`/realms/<realm>`, holding its public key) is fetched; if it
 *    cannot be, the portal starts signed out (public pages still work);
 * 2. keycloak-js starts in `check-sso` mode with a silent sign-on page (a hidden frame asks the
 *    identity server, without any prompt, whether the browser already has a session), the
 *    authorization code flow with PKCE (S256) returned in the query (see `AUTH_RESPONSE_MODE`),
 *    and the login-status frame checked every 5 s;
 * 3. while signed in, the token is checked every 5 s and refreshed when it expires within 180 s;
 *    a failed refresh, or the login-status frame reporting a change, signs the user out here.
 *
 * Nothing is kept in sessionStorage or localStorage by the portal (keycloak-js keeps only the
 * short-lived state of a sign-in in progress). React reads the session through `SessionStore`.
 */
import type Keycloak from 'keycloak-js';
import type { KeycloakConfig } from 'keycloak-js';
import {
  AUTH_CLIENT_ID,
  AUTH_REALM,
  AUTH_RESPONSE_MODE,
  AUTH_SERVER_URL,
  AUTH_START_TIMEOUT_MS,
  LOGIN_IFRAME_INTERVAL_SECONDS,
  SILENT_CHECK_SSO_PATH,
  TOKEN_CHECK_INTERVAL_MS,
  TOKEN_MIN_VALIDITY_SECONDS,
} from './auth-config';
import { pickLanguage } from '../core/i18n/translate';
import {
  sameIdentity,
  signedInSession,
  signedOutSession,
  type Session,
  type SessionClaims,
} from './session';

/** The current session, and a way to hear when it changes (for `useSyncExternalStore`). */
export interface SessionStore {
  current(): Session;
  subscribe(listener: () => void): () => void;
}

/**
 * Query parameter of the address the identity server sends the user back to, naming the route
 * to open: a redirect URI must not contain a fragment (RFC 6749, section 3.1.2), and the
 * portal's routes are fragments, so the route travels in the query and `restoreReturnRoute`
 * moves it back into the fragment at start.
 */
export const RETURN_PARAM = 'return_to';

/** The address to come back to after sign-in or sign-out, e.g. `https://portal.example/?return_to=%2Fvisa%2Fapplication`. */
export function returnAddress(path?: string): string {
  const origin = globalThis.location.origin;
  return path && path !== '/' && path.startsWith('/')
    ? `${origin}/?${RETURN_PARAM}=${encodeURIComponent(path)}`
    : `${origin}/`;
}

/** Moves a route named by `return_to` into the fragment (before the router reads the address). */
export function restoreReturnRoute(): void {
  const url = new URL(globalThis.location.href);
  const path = url.searchParams.get(RETURN_PARAM);
  if (path === null) return;
  url.searchParams.delete(RETURN_PARAM);
  if (path.startsWith('/') && !path.startsWith('//') && !url.hash) url.hash = `#${path}`;
  globalThis.history.replaceState(globalThis.history.state, '', url.href);
}

/** Without a usable identity server, "sign in" can only say so: the 401 page. */
function unavailableLogin(): void {
  globalThis.location.replace(`${globalThis.location.origin}/#/401`);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A store that never changes: the portal signed out for good (no identity server). */
function staticStore(session: Session): SessionStore {
  return { current: () => session, subscribe: () => () => undefined };
}

/** Fetches the realm's public description (its public key): is the identity server there? */
async function realmReachable(url: string, realm: string): Promise<boolean> {
  try {
    const response = await withTimeout(
      fetch(`${url}/realms/${encodeURIComponent(realm)}`, {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      }),
      AUTH_START_TIMEOUT_MS,
      'realm fetch',
    );
    if (!response.ok) return false;
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null;
  } catch {
    return false;
  }
}

/**
 * Starts single sign-on and resolves with the session store. Never rejects: whatever fails,
 * the portal starts signed out.
 */
export async function startSession(): Promise<SessionStore> {
  try {
    return await startKeycloak();
  } finally {
    restoreReturnRoute();
  }
}

/** An error the identity server sent back (the user cancelled, the request was refused...). */
function isOAuthErrorResponse(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && !(error instanceof Error) && 'error' in error
  );
}

/**
 * keycloak-js gives each of its hidden frames (third-party cookie check, silent sign-on, login
 * status, all made while it starts) `sandbox="allow-scripts allow-same-origin ..."`, and
 * Chromium then warns on every page that the frame "can escape its sandboxing". For a frame of
 * the portal's own origin (the built-in identity server) the warning is right: a same-origin
 * page allowed to run scripts can lift its own sandbox, so the attribute protects nothing. While
 * keycloak-js starts, the frames it creates pointing at the portal's origin are therefore made
 * without it; a frame of another origin (a separate Keycloak) keeps its sandbox.
 */
export async function withoutSameOriginFrameSandbox<T>(start: () => Promise<T>): Promise<T> {
  const original = document.createElement;
  const create = (tagName: string, options?: ElementCreationOptions): HTMLElement => {
    const element = original.call(document, tagName, options);
    if (element instanceof HTMLIFrameElement) {
      const setAttribute = element.setAttribute.bind(element);
      // keycloak-js sets the frame's src before its sandbox.
      element.setAttribute = (name: string, value: string) => {
        if (name.toLowerCase() === 'sandbox' && sameOrigin(element.getAttribute('src'))) return;
        setAttribute(name, value);
      };
    }
    return element;
  };
  document.createElement = create as typeof document.createElement;
  try {
    return await start();
  } finally {
    document.createElement = original;
  }
}

function sameOrigin(address: string | null): boolean {
  if (!address) return false;
  try {
    return new URL(address, globalThis.location.href).origin === globalThis.location.origin;
  } catch {
    return false;
  }
}

/**
 * keycloak-js, in its own chunk: the portal's first script does not carry it, and it downloads
 * while the realm's description is fetched.
 */
function loadKeycloak(): Promise<typeof Keycloak> {
  return import('keycloak-js').then((module) => module.default);
}

/**
 * keycloak-js' configuration. For the built-in identity server (the portal's own origin, see
 * auth-config.ts) its endpoints are given as an OpenID provider's metadata: keycloak-js then
 * skips its third-party cookies check, two hidden frames opened one after the other before
 * anything else while single sign-on starts, which can only ever answer "supported" when the
 * identity server's cookies are first-party. Every endpoint is the one the realm form names.
 * A separate Keycloak (another origin) is configured by realm, and keeps the check: its cookies
 * are third-party there, and a browser blocking them needs keycloak-js' fallback.
 */
function clientConfig(url: string): KeycloakConfig {
  if (!sameOrigin(url)) return { url, realm: AUTH_REALM, clientId: AUTH_CLIENT_ID };
  const realm = `${url}/realms/${encodeURIComponent(AUTH_REALM)}`;
  const protocol = `${realm}/protocol/openid-connect`;
  return {
    clientId: AUTH_CLIENT_ID,
    oidcProvider: {
      authorization_endpoint: `${protocol}/auth`,
      token_endpoint: `${protocol}/token`,
      end_session_endpoint: `${protocol}/logout`,
      check_session_iframe: `${protocol}/login-status-iframe.html`,
      userinfo_endpoint: `${protocol}/userinfo`,
    },
  };
}

async function startKeycloak(): Promise<SessionStore> {
  const url = AUTH_SERVER_URL();
  const library = loadKeycloak();
  // Not left unhandled when the realm check fails first; awaited below otherwise.
  library.catch(() => undefined);
  if (!(await realmReachable(url, AUTH_REALM))) {
    console.warn('[portal] identity server unreachable: starting signed out');
    return staticStore(signedOutSession(unavailableLogin));
  }

  let KeycloakClient: typeof Keycloak;
  try {
    KeycloakClient = await library;
  } catch (error) {
    console.warn('[portal] single sign-on could not be loaded: starting signed out', error);
    return staticStore(signedOutSession(unavailableLogin));
  }
  const keycloak = new KeycloakClient(clientConfig(url));
  const listeners = new Set<() => void>();
  let available = true;
  let timer: ReturnType<typeof setInterval> | undefined;
  let refreshing = false;

  const login = (redirectPath?: string) => {
    if (!available) return unavailableLogin();
    // The page's language (i18n.ts keeps the document's lang in step with it): the sign-in
    // page is shown in it.
    const locale = pickLanguage(document.documentElement.lang);
    void keycloak
      .login({ redirectUri: returnAddress(redirectPath), locale })
      .catch(unavailableLogin);
  };
  const logout = () => {
    stopChecks();
    // The identity server asks "sign out?" on a page of its own: in the page's language, as
    // the sign-in (`ui_locales`, RP-initiated logout's parameter; keycloak-js sends none).
    const locale = pickLanguage(document.documentElement.lang);
    try {
      window.location.replace(
        `${keycloak.createLogoutUrl({ redirectUri: returnAddress() })}&ui_locales=${locale}`,
      );
    } catch {
      signOutHere();
    }
  };
  const token = async (): Promise<string | undefined> => {
    if (!keycloak.token) return undefined;
    try {
      // Between two checks the token may still have expired (a sleeping laptop): refresh first.
      if (keycloak.isTokenExpired(30)) await keycloak.updateToken(30);
    } catch {
      signOutHere();
      return undefined;
    }
    return keycloak.token;
  };
  const accountUrl = () => {
    try {
      return keycloak.authenticated ? keycloak.createAccountUrl() : undefined;
    } catch {
      return undefined;
    }
  };

  const signedOut = signedOutSession(login);
  let session: Session = signedOut;

  function publish() {
    const next = keycloak.authenticated
      ? signedInSession((keycloak.tokenParsed ?? {}) as SessionClaims, {
          token,
          login,
          logout,
          accountUrl,
        })
      : signedOut;
    if (sameIdentity(next, session)) return;
    session = next;
    if (session.signedIn) startChecks();
    else stopChecks();
    for (const listener of listeners) listener();
  }

  function signOutHere() {
    stopChecks();
    keycloak.clearToken(); // calls onAuthLogout when there was a token
    publish();
  }

  function startChecks() {
    if (timer !== undefined) return;
    timer = setInterval(() => {
      if (refreshing || !keycloak.authenticated) return;
      refreshing = true;
      keycloak
        .updateToken(TOKEN_MIN_VALIDITY_SECONDS)
        .then(() => publish())
        .catch(() => signOutHere())
        .finally(() => {
          refreshing = false;
        });
    }, TOKEN_CHECK_INTERVAL_MS);
  }

  function stopChecks() {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  }

  const liveStore: SessionStore = {
    current: () => session,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  keycloak.onAuthLogout = () => publish();
  keycloak.onAuthRefreshSuccess = () => publish();
  keycloak.onAuthSuccess = () => publish();

  try {
    await withTimeout(
      withoutSameOriginFrameSandbox(() =>
        keycloak.init({
          onLoad: 'check-sso',
          silentCheckSsoRedirectUri: `${globalThis.location.origin}${SILENT_CHECK_SSO_PATH}`,
          pkceMethod: 'S256',
          responseMode: AUTH_RESPONSE_MODE,
          checkLoginIframe: true,
          checkLoginIframeInterval: LOGIN_IFRAME_INTERVAL_SECONDS,
        }),
      ),
      AUTH_START_TIMEOUT_MS,
      'single sign-on start',
    );
  } catch (error) {
    if (isOAuthErrorResponse(error)) {
      // The sign-in came back with an error (e.g. cancelled): signed out, and may try again.
      console.warn('[portal] sign-in failed', error);
      signOutHere();
      return liveStore;
    }
    console.warn('[portal] single sign-on failed to start: starting signed out', error);
    available = false;
    stopChecks();
    session = signedOut;
    // Whatever keycloak-js finishes later must not sign the user in behind the portal's back.
    keycloak.onAuthLogout = keycloak.onAuthRefreshSuccess = keycloak.onAuthSuccess = undefined;
    return staticStore(signedOut);
  }
  publish();
  return liveStore;
}
