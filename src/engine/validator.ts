import type { PrecompiledValidate } from './form/types';

const cache = new Map<string, Promise<PrecompiledValidate>>();

/** Loads a precompiled validator module: the strict CSP forbids eval, so the browser never compiles schemas. */
export function loadValidator(url: string): Promise<PrecompiledValidate> {
  let pending = cache.get(url);
  if (!pending) {
    pending = (async () => {
      const module: unknown = await import(/* @vite-ignore */ url);
      const candidate =
        typeof module === 'object' && module !== null && 'default' in module
          ? (module as { default: unknown }).default
          : undefined;
      if (typeof candidate !== 'function') throw new Error(`No validator exported by ${url}`);
      return candidate as PrecompiledValidate;
    })();
    pending.catch(() => cache.delete(url));
    cache.set(url, pending);
  }
  return pending;
}
