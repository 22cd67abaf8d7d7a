/** A store's listeners: `subscribe` (for `useSyncExternalStore`) and `notify` of a change. */
export function listeners() {
  const all = new Set<() => void>();
  return {
    subscribe(listener: () => void) {
      all.add(listener);
      return () => all.delete(listener);
    },
    notify: () => all.forEach((listener) => listener()),
  };
}
