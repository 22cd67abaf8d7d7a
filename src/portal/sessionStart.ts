import { RETURN_PARAM } from './keycloak';
import type { PortalModule } from '../engine/modules-context';
import { HOME_PATH } from './paths';

/**
 * When single sign-on starts. It is a chain of requests and hidden same-origin frames (the
 * realm's description, keycloak-js, the login-status frame and its check, then for a signed-in
 * person the silent sign-on frame and the token exchange), one after the other, and the frames'
 * documents and scripts run on the page's own thread.
 *
 * - On a page behind roles, or when the identity server has just sent the browser back, the page
 *   waits for the session: the chain starts as soon as the portal's script runs, alongside the
 *   definitions.
 * - On a public page, the page does not need the session to show: the chain starts once that
 *   page has painted (main.tsx). On a phone over a slow network, starting it alongside held the
 *   home page's text back by a second or more.
 */

/**
 * Public pages a visitor may open without a session (specification 000, section 2): the home
 * page and the modules' pages that no role guards (registration).
 */
const signedOutFirstPaths = (modules: readonly PortalModule[]): ReadonlySet<string> =>
  new Set([
    '/',
    HOME_PATH,
    ...modules
      .flatMap((module) => module.pages ?? [])
      .flatMap((page) => (page.roles ? [] : [page.path])),
  ]);

/**
 * The route the portal opens at start: the fragment, or the route a sign-in returns to
 * (`return_to`, still in the query while single sign-on starts).
 */
export function routeAtStart(location: Pick<Location, 'hash' | 'search'>): string {
  const returning = new URLSearchParams(location.search).get(RETURN_PARAM);
  if (returning?.startsWith('/')) return returning;
  return location.hash.replace(/^#/, '').split('?')[0] || '/';
}

/**
 * Whether the address is the identity server sending the browser back (a sign-in's code, its
 * error, the route to return to): keycloak-js then takes its parameters out of the address, and
 * the route moves into the fragment, before the router may read it.
 */
export function returningFromSignIn(location: Pick<Location, 'search'>): boolean {
  const query = new URLSearchParams(location.search);
  return ['code', 'state', 'error', RETURN_PARAM].some((name) => query.has(name));
}

/** Whether the page opened at start may paint before single sign-on starts (see above). */
export function paintsBeforeSession(
  location: Pick<Location, 'hash' | 'search'>,
  modules: readonly PortalModule[],
): boolean {
  return !returningFromSignIn(location) && signedOutFirstPaths(modules).has(routeAtStart(location));
}

/**
 * Resolves once the browser has painted what is on screen now: after the next animation frame
 * (which runs before the paint), a task queued behind that paint. A hidden tab paints nothing
 * and runs no animation frames, so there it resolves at once.
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') return resolve();
    // A tab hidden before its frame came would otherwise wait until it is shown again.
    document.addEventListener('visibilitychange', () => resolve(), { once: true });
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(undefined);
    });
  });
}
