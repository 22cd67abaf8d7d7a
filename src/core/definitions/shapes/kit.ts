/** The building blocks of the definition shapes (docs/architecture.md, "One source per shape"). */
import Type, { type Static, type TProperties, type TSchema, type TUnsafe } from 'typebox';
import { FIELD_NAME_PATTERN, IDENTIFIER_MAX_LENGTH, IDENTIFIER_PATTERN } from '../names';

export { Type, type Static };

/**
 * What a value of a definition names, declared with the `x-names` keyword:
 * - `text`: a translation key, which must name a text (not a group of texts) in every language;
 * - `pointer`: a JSON pointer into the data of the document the file defines (a workflow's
 *   document, or the schema itself), which must name a field of its schema;
 * - `catalog`: a catalogue's id;
 * - `document`: a document type, a workflow's id;
 * - `count`: the texts of a count, `<key>_one`/`_other` and `<key>More_one`/`_other`.
 * The loader's shape check collects every such value with where it is; its cross-checks
 * (src/server/definitions/check-references.ts) then look each one up, so a new property naming
 * a text or a field is checked by declaring it, not by code of its own.
 */
export type ReferenceKind = 'text' | 'pointer' | 'catalog' | 'document' | 'count';
export const NAMES_KEYWORD = 'x-names';

/** An object of exactly these properties; those wrapped in `Type.Optional` may be left out. */
export function strict<P extends TProperties>(properties: P, options: object = {}) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/** An object of any keys (`options` may limit them), each holding a `value`. */
export function record<V extends TSchema>(
  value: V,
  options: object = {},
): TUnsafe<Record<string, Static<V>>> {
  return Type.Unsafe<Record<string, Static<V>>>({
    type: 'object',
    ...options,
    additionalProperties: value,
  });
}

/** Exactly one of `schemas` holds (they never overlap, so every branch is tried). */
export function oneOf<S extends TSchema[]>(...schemas: S): TUnsafe<Static<S[number]>> {
  return Type.Unsafe<Static<S[number]>>({ oneOf: schemas });
}

/** A string listed in `values`. */
export function choice<const V extends readonly string[]>(values: V): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ enum: [...values] });
}

/** A list of these, at least one: `minItems: 1` and whatever else `options` adds. */
export function some<S extends TSchema>(items: S, options: object = {}) {
  return Type.Array(items, { minItems: 1, ...options });
}

const identifierText = { pattern: IDENTIFIER_PATTERN, maxLength: IDENTIFIER_MAX_LENGTH };
export const identifier = Type.String(identifierText);
export const fieldName = Type.String({ pattern: FIELD_NAME_PATTERN });
/** A non-empty text. */
export const filled = Type.String({ minLength: 1 });
/** A string naming something the loader looks up (ReferenceKind). */
export const naming = (kind: ReferenceKind, options: object = {}) =>
  Type.String({ ...options, [NAMES_KEYWORD]: kind });
/** A translation key: it must name a text in every language. */
export const textKey = naming('text');
/** A count's texts: `<key>_one`, `<key>_other`, `<key>More_one`, `<key>More_other`. */
export const countKey = naming('count');
/** A catalogue's id: the catalogue must exist. */
export const catalogId = naming('catalog', identifierText);
/** A document type (a workflow's id): the workflow must exist, in a module switched on. */
export const documentType = naming('document');
const POINTER = '^(/[A-Za-z0-9_]+)+$';
/** A JSON pointer of plain names into the file's own document: a field of its schema. */
export const dataPointer = naming('pointer', { pattern: POINTER, maxLength: 200 });
/** The same shape, relative to something else (an item of a list): not checked against the schema. */
export const relativePointer = Type.String({ pattern: POINTER, maxLength: 200 });
/** A pointer whose segments may be anything but `/` (a rule's path, a list column's field). */
export const loosePointer = naming('pointer', { pattern: '^(/[^/]+)+$' });
/** Role suffixes, joined to the workflow's `rolePrefix`. */
export const roleSuffixes = Type.Array(Type.String({ pattern: '^[a-z][a-z0-9-]*$' }));
/** Role suffixes, at least one: holding any one allows. */
export const someRoles = some(roleSuffixes.items);
/** A comma list of roles: `catalog-read, catalog-manage`. */
export const roleCommaList = Type.String({
  pattern: '^\\s*[a-z][a-z0-9-]*(\\s*,\\s*[a-z][a-z0-9-]*)*\\s*$',
});
/** An ISO 4217 currency code (NZD). */
export const currencyCode = Type.String({ pattern: '^[A-Z]{3}$' });
/** A document status, as the machine names its states. */
export const STATUS_PATTERN = '^[A-Z][A-Z ]*$';
export const scalar = Type.Unsafe<string | number | boolean>({
  type: ['string', 'number', 'boolean'],
});
export const strings = Type.Array(Type.String());
/** Any object: what is inside is checked elsewhere. */
export const anyObject = Type.Unsafe<Record<string, unknown>>({ type: 'object' });

/** A definition file's shape: `$id` names it for ajv; `$comment` and `$schema` are allowed. */
export function definitionFile<S extends TSchema & { properties: object }>(
  id: string,
  shape: S,
): TUnsafe<Static<S>> {
  const properties = { $comment: Type.String(), $schema: Type.String(), ...shape.properties };
  return Type.Unsafe<Static<S>>({ $id: `meta/${id}`, ...shape, properties });
}
