import { createApiClient, DEFAULT_BACKENDS, type ApiClient } from '../core/api/client';
import type { PortalModule } from '../engine/modules-context';
import { portalDefinitionsWatch, watchedFetch } from './definitionsWatch';
import { currentLanguage } from './i18n';
import { screenNamingFetch } from './screen';
import type { Session } from './session';

export const API_BASE_URL = '/api';

/** The portal's API client; `token` follows the current session, so it is never rebuilt. */
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
    // Each call says which screen made it (screen.ts): the audit trail records it with a read.
    fetch: screenNamingFetch(watchedFetch(portalDefinitionsWatch)),
  });
}

/** Address of a catalogue's precompiled validator module (an ES module on our origin). */
export function catalogValidatorUrl(catalogId: string): string {
  return `${API_BASE_URL}${DEFAULT_BACKENDS.definitions}/validators/catalog/${encodeURIComponent(catalogId)}.js`;
}

/**
 * `fetch`, answering offline with the browser's cached copy: for the public definitions, sent
 * `no-cache`, so the shell can start offline (the service worker never handles `/api`).
 */
export const fetchOrLastCopy: typeof fetch = (input, init) =>
  fetch(input, init).catch((error: unknown) =>
    fetch(input, { ...init, cache: 'force-cache' }).catch(() => {
      throw error;
    }),
  );
