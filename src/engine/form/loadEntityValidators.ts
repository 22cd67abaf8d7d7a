import type { JsonSchema } from '../../core/definitions/types';
import type {
  EntityValidators,
  PrecompiledValidate,
  SectionValidators,
  ValidatorSource,
} from './types';

const isFunction = (value: unknown): value is PrecompiledValidate => typeof value === 'function';
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function asSection(module: unknown, url: string): SectionValidators {
  if (
    isObject(module) &&
    isFunction(module.validate) &&
    isObject(module.rjsf) &&
    isObject(module.schema)
  ) {
    return {
      validate: module.validate,
      rjsf: module.rjsf as Record<string, PrecompiledValidate>,
      schema: module.schema as JsonSchema,
    };
  }
  throw new Error(`No section validators exported by ${url}`);
}

function asDocument(module: unknown, url: string): PrecompiledValidate {
  if (isObject(module) && isFunction(module.validate)) return module.validate;
  throw new Error(`No document validator exported by ${url}`);
}

/**
 * Modules imported once each, by address: a pending import is shared, its value kept once it
 * arrives (so a render can read it synchronously), and a failed import forgotten (the next asks
 * again).
 */
export function importsOnce<T>(read: (module: unknown, url: string) => T) {
  const modules = new Map<string, { loading: Promise<T>; value?: T }>();
  return {
    current: (url: string) => modules.get(url)?.value,
    load(url: string): Promise<T> {
      const known = modules.get(url);
      if (known) return known.loading;
      const module: { loading: Promise<T>; value?: T } = {
        loading: import(/* @vite-ignore */ url).then(
          (exported: unknown) => (module.value = read(exported, url)),
          (error: unknown) => {
            modules.delete(url);
            throw error;
          },
        ),
      };
      modules.set(url, module);
      return module.loading;
    },
  };
}

const documentModules = importsOnce(asDocument);
const sectionModules = importsOnce(asSection);
const sources = new Map<string, ValidatorSource>();

/**
 * An entity's precompiled validators (the CSP forbids eval), each module fetched when a form
 * needs it; one source per entity, so what one screen loaded the next finds.
 */
export function entityValidators(
  entityId: string,
  base = '/api/definitions/validators/schema',
): ValidatorSource {
  const key = `${base}|${entityId}`;
  let source = sources.get(key);
  if (!source) {
    const at = `${base}/${encodeURIComponent(entityId)}`;
    const section = (id: string) => `${at}/${encodeURIComponent(id)}.js`;
    source = {
      section: (id) => sectionModules.current(section(id)),
      loadSection: (id) => sectionModules.load(section(id)),
      document: () => documentModules.current(`${at}.js`),
      loadDocument: () => documentModules.load(`${at}.js`),
    };
    sources.set(key, source);
  }
  return source;
}

/** Validators already loaded (all at once, e.g. a test's module) as a source. */
export function validatorSource(validators: EntityValidators | ValidatorSource): ValidatorSource {
  if ('loadSection' in validators) return validators;
  const section = (id: string): SectionValidators | undefined => {
    const validate = validators.sections[id];
    const schema = validators.sectionSchemas[id];
    return validate && schema ? { validate, schema, rjsf: validators.rjsf[id] ?? {} } : undefined;
  };
  return {
    section,
    loadSection: async (id) => {
      const found = section(id);
      if (!found) throw new Error(`No validators for section ${id}`);
      return found;
    },
    document: () => validators.validate,
    loadDocument: async () => validators.validate,
  };
}
