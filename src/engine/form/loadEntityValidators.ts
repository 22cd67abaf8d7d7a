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
 * A module imported once: the pending import is shared, its value kept once it arrives (so a
 * render can read it synchronously), and a failed import forgotten (the next asks again).
 */
function importOnce<T>(url: string, read: (module: unknown, url: string) => T) {
  let pending: Promise<T> | undefined;
  let value: T | undefined;
  return {
    current: () => value,
    load(): Promise<T> {
      pending ??= import(/* @vite-ignore */ url).then(
        (module: unknown) => (value = read(module, url)),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
  };
}

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
    const document = importOnce(`${at}.js`, asDocument);
    const sections = new Map<string, ReturnType<typeof importOnce<SectionValidators>>>();
    const section = (id: string) => {
      let module = sections.get(id);
      if (!module) {
        module = importOnce(`${at}/${encodeURIComponent(id)}.js`, asSection);
        sections.set(id, module);
      }
      return module;
    };
    source = {
      section: (id) => section(id).current(),
      loadSection: (id) => section(id).load(),
      document: () => document.current(),
      loadDocument: () => document.load(),
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
