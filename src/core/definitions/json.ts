/** A JSON Schema (draft-07) as we store it: plain data, checked by Ajv's meta-schema. */
export type JsonSchema = { [key: string]: JsonValue };
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
