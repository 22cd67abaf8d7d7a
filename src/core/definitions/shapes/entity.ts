/** An entity schema (schemas/<id>.schema.json): a document's JSON Schema, sections and rules. */
import type { RuleUse } from '../../rules/types';
import type { JsonSchema, JsonValue } from '../json';
import {
  anyObject,
  catalogId,
  dataPointer,
  definitionFile,
  documentType,
  fieldName,
  identifier,
  loosePointer,
  oneOf,
  record,
  some,
  strict,
  textKey,
  Type,
  type Static,
} from './kit';

/** When a section (or a field's `ui:options.when`) applies: the value at `pointer` is one of `in`. */
export const SectionCondition = strict({
  pointer: dataPointer,
  in: Type.Unsafe<JsonValue[]>({ type: 'array', minItems: 1 }),
});
export type SectionCondition = Static<typeof SectionCondition>;

export const EntitySection = strict({
  id: fieldName,
  /** Filled by officers (assignment, issuance...): applicants never edit it. */
  officer: Type.Optional(Type.Boolean()),
  /** The service's own workings: shown only to the `seeAll` roles, never to the owner. */
  internal: Type.Optional(Type.Boolean()),
  /** The section applies only when `when` holds; otherwise the server drops its data. */
  when: Type.Optional(SectionCondition),
});
export type EntitySection = Static<typeof EntitySection>;

/** A value a catalogue list source compares an entry's field with. */
export const CatalogListMatch = oneOf(
  strict({ value: Type.String() }),
  strict({ pointer: dataPointer }),
);

/** Where the items of a catalogue list come from: one catalogue, the entries that match. */
export const CatalogListSource = strict({
  catalog: catalogId,
  /** Entry field -> what it must equal: a fixed value, or the document's value at a pointer. */
  where: Type.Optional(record(CatalogListMatch)),
  /** Item field -> entry field it is copied from. */
  fields: record(Type.String()),
});
export type CatalogListSource = Static<typeof CatalogListSource>;

/** An array of the document the server rebuilds from catalogues on every save. */
export const CatalogList = strict({
  path: dataPointer,
  key: fieldName,
  keep: Type.Array(fieldName),
  /** Item field numbered 1, 2... in list order (a question's rank). */
  position: Type.Optional(fieldName),
  sources: some(CatalogListSource),
});
export type CatalogList = Static<typeof CatalogList>;

/** A rule's use: its parameters are the rule's own (src/core/rules). */
const ruleUse = Type.Unsafe<RuleUse>(
  Type.Object({
    rule: Type.String({ pattern: '^[a-zA-Z][a-zA-Z0-9]*$' }),
    path: loosePointer,
    message: Type.Optional(textKey),
    // A rule about a document of another type: its other pointers name that type's fields.
    documentType: Type.Optional(documentType),
  }),
);

export const EntityDefinition = strict({
  id: identifier,
  schema: Type.Unsafe<JsonSchema>(
    Type.Object({
      type: Type.Literal('object'),
      properties: Type.Unsafe({ type: 'object', propertyNames: fieldName }),
    }),
  ),
  uiSchema: Type.Optional(Type.Unsafe<JsonSchema>(anyObject)),
  sections: some(EntitySection),
  rules: Type.Optional(Type.Array(ruleUse)),
  catalogLists: Type.Optional(Type.Array(CatalogList)),
});
export type EntityDefinition = Static<typeof EntityDefinition>;

export const entityMetaSchema = definitionFile('entity', EntityDefinition);
