import { createApiClient, DEFAULT_BACKENDS, type ApiClient } from '../core/api/client';
import type { PortalModule } from '../engine/modules-context';
import { portalDefinitionsWatch, watchedFetch } from './definitionsWatch';
import { currentLanguage } from './i18n';
import type { Session } from './session';

export const API_BASE_URL = '/api';

/**
 * The API client of the portal: same-origin `/api`, the current language, the session's token.
 * Pass a token source that follows the current session, so the client never needs rebuilding.
 * Every answer says which definitions the server runs (definitionsWatch.ts).
 */
export function portalApiClient(
  session: Pick<Session, 'token'>,
  modules: readonly PortalModule[] = [],
): ApiClient {
  return createApiClient({
    baseUrl: API_BASE_URL,
    backends: Object.fromEntries([
      ...Object.entries(DEFAULT_BACKENDS),
      ...modules.flatMap((module) => Object.entries(module.backends ?? {})),
    ]),
    locale: currentLanguage,
    token: () => session.token(),
    fetch: watchedFetch(portalDefinitionsWatch),
  });
}

/** Address of a catalogue's precompiled validator module (an ES module on our origin). */
export function catalogValidatorUrl(catalogId: string): string {
  return `${API_BASE_URL}${DEFAULT_BACKENDS.definitions}/validators/catalog/${encodeURIComponent(catalogId)}.js`;
}

/**
 * `fetch`, except that when the network fails (offline) it answers with the copy the browser's
 * HTTP cache holds from the last visit, if any. For the public definitions only: the server sends
 * them `no-cache` (kept, revalidated on every load), so online they always come from the server,
 * and offline the shell can still start. The service worker never handles `/api`.
 */
export const fetchOrLastCopy: typeof fetch = (input, init) =>
  fetch(input, init).catch((error: unknown) =>
    fetch(input, { ...init, cache: 'force-cache' }).catch(() => {
      throw error;
    }),
  );
