import type { SchemaError } from '../core/validation/field-errors';

/** A standalone Ajv validate function, as the server's validator modules export it. */
export interface StandaloneValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

function isValidator(value: unknown): value is StandaloneValidator {
  return typeof value === 'function';
}

const cache = new Map<string, Promise<StandaloneValidator>>();

/** Loads a precompiled validator module: the strict CSP forbids eval, so the browser never compiles schemas. */
export function loadValidator(url: string): Promise<StandaloneValidator> {
  let pending = cache.get(url);
  if (!pending) {
    pending = (async () => {
      const module: unknown = await import(/* @vite-ignore */ url);
      const candidate =
        typeof module === 'object' && module !== null && 'default' in module
          ? (module as { default: unknown }).default
          : undefined;
      if (!isValidator(candidate)) throw new Error(`No validator exported by ${url}`);
      return candidate;
    })();
    pending.catch(() => cache.delete(url));
    cache.set(url, pending);
  }
  return pending;
}
