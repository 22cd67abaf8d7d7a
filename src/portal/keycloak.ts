/** The session backed by keycloak-js (specification 000, section 7); unreachable: signed out. */
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
import { listeners } from './listeners';

/** The current session, and a way to hear when it changes (for `useSyncExternalStore`). */
export interface SessionStore {
  current(): Session;
  subscribe(listener: () => void): () => void;
}

/** The route to return to travels in the query: a redirect URI has no fragment (RFC 6749 3.1.2). */
export const RETURN_PARAM = 'return_to';

/** The address to come back to after sign-in or sign-out. */
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
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A store that never changes: the portal signed out for good (no identity server). */
function staticStore(session: Session): SessionStore {
  return { current: () => session, subscribe: () => () => undefined };
}

/** Fetches the realm's public description (its public key): is the identity server there? */
async function realmReachable(url: string, realm: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/realms/${encodeURIComponent(realm)}`, {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
      signal: AbortSignal.timeout(AUTH_START_TIMEOUT_MS),
    });
    if (!response.ok) return false;
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null;
  } catch {
    return false;
  }
}

/** Starts single sign-on; never rejects: whatever fails, the portal starts signed out. */
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
 * keycloak-js' hidden frames of the portal's own origin are made without their sandbox: a
 * same-origin frame running scripts can lift it anyway, and Chromium warns on every page.
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
 * The built-in identity server (same origin) is given as OpenID metadata, so keycloak-js skips
 * its third-party cookie check (two frames); a separate Keycloak keeps it, by realm.
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
  // keycloak-js in its own chunk, downloaded while the realm's description is fetched.
  const library = import('keycloak-js').then((module) => module.default);
  // Not left unhandled when the realm check fails first; awaited below otherwise.
  library.catch(() => undefined);
  if (!(await realmReachable(url, AUTH_REALM))) {
    console.warn('[portal] identity server unreachable: starting signed out');
    return staticStore(signedOutSession(unavailableLogin));
  }

  const KeycloakClient = await library.catch((error: unknown) =>
    console.warn('[portal] single sign-on could not be loaded: starting signed out', error),
  );
  if (!KeycloakClient) return staticStore(signedOutSession(unavailableLogin));
  const keycloak = new KeycloakClient(clientConfig(url));
  const changes = listeners();
  let available = true;
  let timer: ReturnType<typeof setInterval> | undefined;
  let refreshing = false;

  const login = (redirectPath?: string) => {
    if (!available) return unavailableLogin();
    // The sign-in page is shown in the page's language.
    const locale = pickLanguage(document.documentElement.lang);
    void keycloak
      .login({ redirectUri: returnAddress(redirectPath), locale })
      .catch(unavailableLogin);
  };
  const logout = () => {
    stopChecks();
    // The sign-out page in the page's language too (keycloak-js sends no `ui_locales`).
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
    changes.notify();
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

  const liveStore: SessionStore = { current: () => session, subscribe: changes.subscribe };

  keycloak.onAuthLogout = keycloak.onAuthRefreshSuccess = keycloak.onAuthSuccess = publish;

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
