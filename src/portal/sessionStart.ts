import { RETURN_PARAM } from './keycloak';
import type { PortalModule } from '../engine/modules-context';
import { HOME_PATH } from './paths';

/*
 * When single sign-on (a chain of requests and hidden frames) starts: at once on a page behind
 * roles or back from sign-in; after a public page has painted, which it held back on phones.
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

/** The route opened at start: the fragment, or the `return_to` of a sign-in. */
export function routeAtStart(location: Pick<Location, 'hash' | 'search'>): string {
  const returning = new URLSearchParams(location.search).get(RETURN_PARAM);
  if (returning?.startsWith('/')) return returning;
  return location.hash.replace(/^#/, '').split('?')[0] || '/';
}

/** Whether the identity server is sending the browser back (code, error, route to return to). */
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

/** Resolves once the browser has painted (a task after the next frame); at once when hidden. */
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
