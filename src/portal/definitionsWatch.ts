import { DEFINITIONS_VERSION_HEADER } from '../core/api/definitions-version';

/**
 * The definitions version the server answers with (`x-definitions-version`) against the page's:
 * after a publish the page offers to reload, never reloading by itself.
 */

export interface DefinitionsWatch {
  /** Whether the server answered with definitions other than the page's. */
  current(): boolean;
  subscribe(listener: () => void): () => void;
  /** Notes the version an answer came with. */
  seen(version: string | null): void;
  /** The version the page runs (the definitions it loaded). */
  expect(version: string): void;
}

export function definitionsWatch(): DefinitionsWatch {
  let expected: string | undefined;
  let outdated = false;
  const listeners = new Set<() => void>();
  return {
    current: () => outdated,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    seen(version) {
      if (outdated || !version || !expected || version === expected) return;
      outdated = true;
      for (const listener of listeners) listener();
    },
    expect(version) {
      expected = version;
    },
  };
}

/** The portal's one watch: the API client reports to it, the layout shows it. */
export const portalDefinitionsWatch = definitionsWatch();

/** `fetch` that reports the definitions every answer came with. */
export function watchedFetch(watch: DefinitionsWatch): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    watch.seen(response.headers.get(DEFINITIONS_VERSION_HEADER));
    return response;
  };
}
