import { useDeferredValue } from 'react';

/**
 * Whether a component's first paint is over: false while it first renders, true from the
 * render React runs just after that paint (a deferred render, which typing interrupts and
 * resumes). What a person does not need first (the rest of a long section, the task list) waits
 * for it, so what they came for is on screen sooner (docs/performance.md, "First render").
 */
export function useFirstPaintDone(): boolean {
  return useDeferredValue(true, false);
}

/** The first `count` items on the first paint, all of them from the render after it. */
export function useFirstPaintSlice<T>(items: readonly T[], count: number): readonly T[] {
  return useFirstPaintDone() ? items : items.slice(0, count);
}
