import type { EntityValidators } from './types';

const cache = new Map<string, Promise<EntityValidators>>();

function isEntityValidators(module: unknown): module is EntityValidators {
  if (typeof module !== 'object' || module === null) return false;
  const m = module as Record<string, unknown>;
  return (
    typeof m.validate === 'function' &&
    typeof m.sections === 'object' &&
    typeof m.rjsf === 'object' &&
    typeof m.sectionSchemas === 'object'
  );
}

/** The URL of an entity's validator module. */
export function entityValidatorsUrl(entityId: string): string {
  return `/api/definitions/validators/schema/${encodeURIComponent(entityId)}.js`;
}

/**
 * Imports an entity's precompiled validator module (same origin; the CSP forbids eval, so the
 * browser never compiles a schema).
 */
export function loadEntityValidators(url: string): Promise<EntityValidators> {
  let pending = cache.get(url);
  if (!pending) {
    pending = (async () => {
      const module: unknown = await import(/* @vite-ignore */ url);
      if (!isEntityValidators(module)) throw new Error(`No entity validators exported by ${url}`);
      return module;
    })();
    pending.catch(() => cache.delete(url));
    cache.set(url, pending);
  }
  return pending;
}
