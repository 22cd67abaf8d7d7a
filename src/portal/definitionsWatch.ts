import { DEFINITIONS_VERSION_HEADER } from '../core/api/definitions-version';

/**
 * The definitions version the server answers with (`x-definitions-version`) against the page's:
 * after a publish the page offers to reload, never reloading by itself.
 */

let expected: string | undefined;
let outdated = false;
const listeners = new Set<() => void>();

/** The portal's one watch: the API client reports to it, the layout shows it. */
export const portalDefinitionsWatch = {
  /** Whether the server answered with definitions other than the page's. */
  current: () => outdated,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Notes the version an answer came with. */
  seen(version: string | null) {
    if (outdated || !version || !expected || version === expected) return;
    outdated = true;
    for (const listener of listeners) listener();
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
