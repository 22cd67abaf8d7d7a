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
 * React Router's hash history numbers each entry it makes (`history.state.idx`) and tells a
 * Back or Forward by the difference of the numbers. An entry the address bar or a plain `#/...`
 * link made has no number: with a form's unsaved-changes guard on (useUnsavedChanges), React
 * Router warns "You are trying to use a blocker on a POP navigation to a location that was not
 * created by @remix-run/router" and cannot hold the navigation, and the edits are lost. Such an
 * entry is numbered here as it arrives, before the router hears of it, as the entry after the
 * one shown (the browser puts a new entry there): the router sees a step forward, which the
 * guard holds and, if the person stays, takes back.
 *
 * Call before the router is made (its own listener must come after this one), then give it the
 * router, whose navigations keep the number of the entry shown. `beforeRouter` runs first on
 * every Back, Forward or hash change: the portal pushes the text still being typed into its form
 * there, so that a form edited a moment ago is known to be dirty (and its guard is up) when the
 * router decides whether to leave. Returns what stops it.
 */
export function numberHistoryEntries(
  win: Window = window,
  beforeRouter: () => void = () => undefined,
): {
  follow(router: Navigations): void;
  stop(): void;
} {
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
  let unsubscribe: () => void = () => undefined;
  return {
    follow(router) {
      unsubscribe = router.subscribe(() => {
        shown = indexOf(win.history.state) ?? shown;
      });
    },
    stop() {
      win.removeEventListener('popstate', onPop);
      unsubscribe();
    },
  };
}
