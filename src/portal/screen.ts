import type { RouteObject } from 'react-router-dom';

/**
 * The screen the portal shows, as its route pattern (`/visa/applications/:id`): sent with every
 * API call in the `x-portal-screen` header, so the audit trail says through which screen a read
 * was made (docs/audit.md). A pattern, never the address itself: ids stay out of the header.
 */
let current: string | undefined;

export const SCREEN_HEADER = 'x-portal-screen';

/** The pattern of the deepest matched route, relative paths joined to their parents'. */
export function screenPattern(matches: ReadonlyArray<{ route: RouteObject }>): string | undefined {
  let pattern = '';
  for (const { route } of matches) {
    if (!route.path) continue;
    pattern = route.path.startsWith('/')
      ? route.path
      : `${pattern.replace(/\/$/, '')}/${route.path}`;
  }
  return pattern || undefined;
}

/** Follows the router: the screen as each navigation leaves it. */
export function followScreen(router: {
  state: { matches: ReadonlyArray<{ route: RouteObject }> };
  subscribe(listener: (state: { matches: ReadonlyArray<{ route: RouteObject }> }) => void): void;
}): void {
  current = screenPattern(router.state.matches);
  router.subscribe((state) => {
    current = screenPattern(state.matches);
  });
}

/** `fetch` naming the current screen in its header. */
export function screenNamingFetch(inner: typeof fetch): typeof fetch {
  return (input, init) => {
    if (!current) return inner(input, init);
    const headers = new Headers(init?.headers);
    headers.set(SCREEN_HEADER, current);
    return inner(input, { ...init, headers });
  };
}
