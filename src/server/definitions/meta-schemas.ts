/**
 * Our own meta-schemas: what a catalogue, entity schema or workflow file must look like before
 * the server accepts it. An error names the file and the JSON pointer inside it.
 */
const identifier = { type: 'string', pattern: '^[a-z][a-z0-9-]*$', maxLength: 64 };
const roleCommaList = {
  type: 'string',
  pattern: '^\\s*[a-z][a-z0-9-]*(\\s*,\\s*[a-z][a-z0-9-]*)*\\s*$',
};
const fieldName = { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9_]*$' };
const labels = {
  type: 'object',
  required: ['title', 'fields'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1 },
    fields: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
  },
};

export const catalogMetaSchema = {
  $id: 'meta/catalog',
  type: 'object',
  required: ['id', 'category', 'searcherRoles', 'managerRoles', 'key', 'schema', 'labels'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    id: identifier,
    category: { type: 'string', pattern: '^[a-z][a-z0-9.-]*$' },
    enabled: { type: 'boolean' },
    searcherRoles: roleCommaList,
    managerRoles: roleCommaList,
    key: { type: 'array', minItems: 1, uniqueItems: true, items: fieldName },
    keyNote: { type: 'string' },
    schema: {
      type: 'object',
      required: ['type', 'properties'],
      properties: {
        type: { const: 'object' },
        properties: {
          type: 'object',
          minProperties: 1,
          propertyNames: fieldName,
          additionalProperties: { type: 'object' },
        },
        required: { type: 'array', items: fieldName },
      },
    },
    columns: { type: 'array', items: fieldName },
    references: {
      type: 'object',
      propertyNames: fieldName,
      additionalProperties: {
        type: 'object',
        required: ['catalog'],
        additionalProperties: false,
        properties: { catalog: identifier },
      },
    },
    labels: {
      type: 'object',
      required: ['en', 'fr'],
      additionalProperties: false,
      properties: { en: labels, fr: labels },
    },
  },
} as const;

export const entityMetaSchema = {
  $id: 'meta/entity',
  type: 'object',
  required: ['id', 'schema'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string' },
    id: identifier,
    schema: { type: 'object', required: ['type'], properties: { type: { const: 'object' } } },
    uiSchema: { type: 'object' },
  },
} as const;

export const workflowMetaSchema = {
  $id: 'meta/workflow',
  type: 'object',
  required: ['id'],
  properties: {
    id: identifier,
  },
} as const;

/** A language's texts: nested objects whose leaves are strings. */
export const translationsMetaSchema = {
  $id: 'meta/translations',
  type: 'object',
  additionalProperties: { anyOf: [{ type: 'string' }, { $ref: '#' }] },
} as const;
