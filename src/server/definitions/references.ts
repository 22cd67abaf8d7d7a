import type { Ajv } from 'ajv';

/**
 * What a value of a definition names, declared in the meta-schemas with the `x-names` keyword:
 * - `text`: a translation key, which must name a text (not a group of texts) in every language;
 * - `pointer`: a JSON pointer into the data of the document the file defines (a workflow's
 *   document, or the schema itself), which must name a field of its schema;
 * - `catalog`: a catalogue's id;
 * - `document`: a document type, a workflow's id;
 * - `count`: the texts of a count, `<key>_one`/`_other` and `<key>More_one`/`_other`.
 * The meta-schema check collects every such value with where it is; the cross-checks
 * (check-references.ts) then look each one up, so a new property naming a text or a field is
 * checked by declaring it, not by code of its own.
 */
export type ReferenceKind = 'text' | 'pointer' | 'catalog' | 'document' | 'count';

export interface Reference {
  kind: ReferenceKind;
  /** JSON pointer of the value in its file (of the object, for a property's name). */
  at: string;
  value: string;
}

export const NAMES_KEYWORD = 'x-names';

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
