import type { Ajv } from 'ajv';
import { NAMES_KEYWORD, type ReferenceKind } from '../../core/definitions/shapes/kit';

export interface Reference {
  kind: ReferenceKind;
  /** JSON pointer of the value in its file (of the object, for a property's name). */
  at: string;
  value: string;
}

let collecting: Reference[] | undefined;

/** Teaches `ajv` the `x-names` keyword: it never fails, it notes the value while collecting. */
export function addNamesKeyword(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: NAMES_KEYWORD,
    schemaType: 'string',
    errors: false,
    validate(
      kind: ReferenceKind,
      data: unknown,
      _parent: unknown,
      context?: { instancePath: string },
    ) {
      if (collecting && typeof data === 'string')
        collecting.push({ kind, at: context?.instancePath ?? '', value: data });
      return true;
    },
  });
}

/**
 * Runs `validate` (a validator compiled by an Ajv with the keyword) and returns what it found
 * named, each value once per place: a `oneOf` tries its branches one after another, so the
 * same value may be seen twice.
 */
export function collectingReferences<T>(validate: () => T): { result: T; references: Reference[] } {
  const outer = collecting;
  collecting = [];
  try {
    const result = validate();
    const seen = new Set<string>();
    const references = collecting.filter((reference) => {
      const id = `${reference.kind}\u0000${reference.at}\u0000${reference.value}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    return { result, references };
  } finally {
    collecting = outer;
  }
}
