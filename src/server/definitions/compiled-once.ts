import { createHash } from 'node:crypto';
import type { Ajv, ValidateFunction } from 'ajv';

/** How many compiled schemas one cache keeps: far more than one definition set's routes and types. */
const KEPT = 2_000;

/** A schema's identity: the hash of its JSON text (equal text, equal check). */
function schemaKey(schema: object): string {
  return createHash('sha256').update(JSON.stringify(schema)).digest('base64');
}

/**
 * Ajv's compile, once per schema text rather than once per schema object. Every server build (a
 * start, a hot switch to a newly published set, each API test's server) makes its route and
 * draft schemas as new objects, which Ajv's own cache (by object) never recognises: it compiled
 * them all again, a fifth of a build's CPU, and kept every copy for the life of the process. The
 * schemas least recently used beyond `kept` are dropped, from Ajv's cache too.
 */
export function compiledOnce(ajv: Ajv, kept = KEPT): (schema: object) => ValidateFunction {
  const compiled = new Map<string, { schema: object; validate: ValidateFunction }>();
  return (schema) => {
    const key = schemaKey(schema);
    const known = compiled.get(key);
    if (known) {
      // Moved to the newest end: the entries first in the map are the least recently used.
      compiled.delete(key);
      compiled.set(key, known);
      return known.validate;
    }
    const validate = ajv.compile(schema);
    compiled.set(key, { schema, validate });
    if (compiled.size > kept) {
      const [oldestKey, oldest] = compiled.entries().next().value!;
      compiled.delete(oldestKey);
      ajv.removeSchema(oldest.schema);
    }
    return validate;
  };
}

/**
 * The schema texts a check has accepted (bounded as above): a check that depends on the text
 * alone need not run again for a text it has passed.
 */
export function acceptedOnce(kept = KEPT): {
  has(schema: object): boolean;
  add(schema: object): void;
} {
  const accepted = new Set<string>();
  return {
    has: (schema) => accepted.has(schemaKey(schema)),
    add(schema) {
      accepted.add(schemaKey(schema));
      if (accepted.size > kept) accepted.delete(accepted.values().next().value!);
    },
  };
}
