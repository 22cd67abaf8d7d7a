import { useEffect, useState, type DependencyList } from 'react';

/**
 * What `load` answers, asked on mounting and again as `deps` change (none asked without `load`):
 * undefined until the first answer, each kept until the next; a late or failed answer is dropped.
 */
export function useAnswer<T>(
  load: (() => Promise<T>) | undefined,
  deps: DependencyList,
): T | undefined {
  const [answer, setAnswer] = useState<T>();
  useEffect(() => {
    if (!load) return undefined;
    let live = true;
    load().then(
      (value) => live && setAnswer(() => value),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // `load` is a new function each render: what it asks for is named by `deps`.
  }, deps);
  return answer;
}
