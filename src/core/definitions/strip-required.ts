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
    if (
      key === 'properties' &&
      typeof child === 'object' &&
      child !== null &&
      !Array.isArray(child)
    ) {
      // Property names are data, not keywords: a property called "required" stays.
      result[key] = Object.fromEntries(
        Object.entries(child).map(([name, sub]) => [name, strip(sub)]),
      );
      continue;
    }
    if (
      key === 'dependencies' &&
      typeof child === 'object' &&
      child !== null &&
      !Array.isArray(child)
    ) {
      // Property dependencies (arrays of names) are requirements too; schema dependencies keep their shape.
      const kept = Object.entries(child).filter(([, dep]) => !Array.isArray(dep));
      if (kept.length)
        result[key] = Object.fromEntries(kept.map(([name, dep]) => [name, strip(dep)]));
      continue;
    }
    result[key] = strip(child);
  }
  return result;
}
