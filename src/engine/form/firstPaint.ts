import { useDeferredValue } from 'react';

/**
 * Whether a component's first paint is over: what a person does not need first waits for it
 * (docs/performance.md, "First render").
 */
export function useFirstPaintDone(): boolean {
  return useDeferredValue(true, false);
}

/** The first `count` items on the first paint, all of them from the render after it. */
export function useFirstPaintSlice<T>(items: readonly T[], count: number): readonly T[] {
  return useFirstPaintDone() ? items : items.slice(0, count);
}
