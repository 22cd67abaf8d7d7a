import { importsOnce } from './form/loadEntityValidators';
import type { PrecompiledValidate } from './form/types';

const validators = importsOnce((module: unknown, url: string): PrecompiledValidate => {
  const candidate =
    typeof module === 'object' && module !== null && 'default' in module
      ? (module as { default: unknown }).default
      : undefined;
  if (typeof candidate !== 'function') throw new Error(`No validator exported by ${url}`);
  return candidate as PrecompiledValidate;
});

/** Loads a precompiled validator module: the strict CSP forbids eval, so the browser never compiles schemas. */
export function loadValidator(url: string): Promise<PrecompiledValidate> {
  return validators.load(url);
}
