/** A JSON Schema (draft-07) as we store it: plain data, checked by Ajv's meta-schema. */
export type JsonSchema = { [key: string]: JsonValue };
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type Node = Record<string, unknown>;

export const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const asNode = (value: unknown): Node | undefined => (isNode(value) ? value : undefined);
