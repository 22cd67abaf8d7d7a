import { asNode } from './json';
import type { JsonSchema, JsonValue } from './types';

/** The schema of a draft: every `required` removed, so a half-filled form can be stored. */
export function stripRequired(schema: JsonSchema): JsonSchema {
  return strip(schema) as JsonSchema;
}

function strip(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== 'object' || value === null) return value;
  const result: { [key: string]: JsonValue } = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'required' && Array.isArray(child)) continue;
    const node = asNode(child) as { [key: string]: JsonValue } | undefined;
    if (key === 'properties' && node) {
      // Property names are data, not keywords: a property called "required" stays.
      result[key] = Object.fromEntries(
        Object.entries(node).map(([name, sub]) => [name, strip(sub)]),
      );
    } else if (key === 'dependencies' && node) {
      // Property dependencies (arrays of names) are requirements too; schema dependencies keep their shape.
      const kept = Object.entries(node).filter(([, dep]) => !Array.isArray(dep));
      if (kept.length)
        result[key] = Object.fromEntries(kept.map(([name, dep]) => [name, strip(dep)]));
    } else result[key] = strip(child);
  }
  return result;
}
