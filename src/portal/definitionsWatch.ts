import { DEFINITIONS_VERSION_HEADER } from '../core/api/definitions-version';
import { listeners } from './listeners';

/**
 * The definitions version the server answers with (`x-definitions-version`) against the page's:
 * after a publish the page offers to reload, never reloading by itself.
 */

let expected: string | undefined;
let outdated = false;
const changes = listeners();

/** The portal's one watch: the API client reports to it, the layout shows it. */
export const portalDefinitionsWatch = {
  /** Whether the server answered with definitions other than the page's. */
  current: () => outdated,
  subscribe: changes.subscribe,
  /** Notes the version an answer came with. */
  seen(version: string | null) {
    if (outdated || !version || !expected || version === expected) return;
    outdated = true;
    changes.notify();
  },
  /** The version the page runs (the definitions it loaded). */
  expect(version: string) {
    expected = version;
  },
};

/** `fetch` that reports the definitions every answer came with. */
export function watchedFetch(watch: { seen(version: string | null): void }): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    watch.seen(response.headers.get(DEFINITIONS_VERSION_HEADER));
    return response;
  };
}
