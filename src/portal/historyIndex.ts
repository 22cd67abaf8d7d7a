/** What the numbering needs of the router: to hear of the navigations it made. */
interface Navigations {
  subscribe(listener: () => void): () => void;
}

/** The number React Router's history gives an entry it made (`history.state.idx`), if any. */
function indexOf(state: unknown): number | undefined {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx : undefined;
}

/**
 * Numbers a history entry the address bar or a plain link made, as React Router's own: without
 * a number its blocker cannot hold a Back, and unsaved edits are lost. Call before the router
 * is made; `beforeRouter` runs first on every Back, Forward or hash change (the form pushes its
 * typed text there).
 */
export function numberHistoryEntries(
  win: Window,
  beforeRouter: () => void,
): { follow(router: Navigations): void } {
  // The router numbers the entry it starts on 0 when it has no number yet.
  let shown = indexOf(win.history.state) ?? 0;
  const onPop = () => {
    beforeRouter();
    const idx = indexOf(win.history.state);
    if (idx !== undefined) {
      shown = idx;
      return;
    }
    shown += 1;
    // The router's own shape of an entry's state: what it pushed (none), a key, the number.
    win.history.replaceState(
      {
        usr: null,
        key: Math.random().toString(36).slice(2, 10),
        ...(win.history.state as object | null),
        idx: shown,
      },
      '',
    );
  };
  win.addEventListener('popstate', onPop);
  return {
    follow(router) {
      router.subscribe(() => {
        shown = indexOf(win.history.state) ?? shown;
      });
    },
  };
}
