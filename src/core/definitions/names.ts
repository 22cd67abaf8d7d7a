/** How definitions name things, shared by the meta-schemas and the studio's designers. */

/** A catalogue's, document type's or module's id: `ports-of-entry`. */
export const IDENTIFIER_PATTERN = '^[a-z][a-z0-9-]*$';
export const IDENTIFIER_MAX_LENGTH = 64;

/** A field of a catalogue or a schema: `countryCode`, `passport_number`. */
export const FIELD_NAME_PATTERN = '^[a-zA-Z][a-zA-Z0-9_]*$';

export function isIdentifier(text: string): boolean {
  return text.length <= IDENTIFIER_MAX_LENGTH && new RegExp(IDENTIFIER_PATTERN).test(text);
}

export function isFieldName(text: string): boolean {
  return new RegExp(FIELD_NAME_PATTERN).test(text);
}
