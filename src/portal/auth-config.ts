/**
 * Where the portal signs users in: the built-in identity server on the portal's own origin. A
 * real Keycloak needs its address here and in the Content-Security-Policy.
 */

/** Base address of the identity server (Keycloak's `url`): the portal's own origin. */
export const AUTH_SERVER_URL = (): string => globalThis.location.origin;

/** The realm holding the portal's users. */
export const AUTH_REALM = 'portal';

/** The OpenID Connect client of the portal (public client, authorization code with PKCE). */
export const AUTH_CLIENT_ID = 'portal';

/** The page the hidden sign-on check loads; it hands its address back to the portal. */
export const SILENT_CHECK_SSO_PATH = '/silent-check-sso.html';

/** The code comes back in the query: fragment mode would replace the portal's route. */
export const AUTH_RESPONSE_MODE = 'query' as const;

/** Token refresh check (spec. 000 sections 7 and 9): every 5 s, refreshed when it expires within 180 s. */
export const TOKEN_CHECK_INTERVAL_MS = 5_000;
export const TOKEN_MIN_VALIDITY_SECONDS = 180;

/** Login-frame check interval in seconds (spec. 000 section 7). */
export const LOGIN_IFRAME_INTERVAL_SECONDS = 5;

/** How long start-up waits for the identity server before starting signed out. */
export const AUTH_START_TIMEOUT_MS = 20_000;
