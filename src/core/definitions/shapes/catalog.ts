/** A catalogue (catalogs/<id>.json): reference data an administrator keeps, with validity. */
import type { JsonSchema } from '../json';
import {
  anyObject,
  currencyCode,
  definitionFile,
  fieldName,
  filled,
  identifier,
  record,
  roleCommaList,
  some,
  strict,
  Type,
  type Static,
} from './kit';

export const CatalogLabels = strict({ title: filled, fields: record(filled) });

export const CatalogReference = Type.Object(
  {
    /** Id of the catalogue the field's value names by key (its single key field). */
    catalog: identifier,
    /** Where another field of the entry says which catalogue is named; `catalog` when none matches. */
    byField: Type.Optional(fieldName),
    catalogs: Type.Optional(record(identifier, { minProperties: 1 })),
  },
  {
    additionalProperties: false,
    dependentRequired: { byField: ['catalogs'], catalogs: ['byField'] },
  },
);
export type CatalogReference = Static<typeof CatalogReference>;

const fieldNames = Type.Array(fieldName);
const fieldsRecord = <V extends Parameters<typeof record>[0]>(value: V) =>
  record(value, { propertyNames: fieldName });

export const CatalogDefinition = strict({
  id: identifier,
  /** Menu category; dots become dashes in the menu (asypx, sso, operators, configuration). */
  category: Type.String({ pattern: '^[a-z][a-z0-9.-]*$' }),
  enabled: Type.Optional(Type.Boolean()),
  /** Comma list of roles that may search and read entries. */
  searcherRoles: roleCommaList,
  /** Comma list of roles that may create, edit and delete entries. */
  managerRoles: roleCommaList,
  /** Fields that identify an entry; with the validity period they are unique. */
  key: some(fieldName, { uniqueItems: true }),
  /** Why the key was chosen where the specification does not show one. */
  keyNote: Type.Optional(Type.String()),
  /** JSON Schema of an entry's own fields (startTime and endTime are added for every catalogue). */
  schema: Type.Unsafe<JsonSchema>(
    Type.Object({
      type: Type.Literal('object'),
      properties: record(anyObject, { minProperties: 1, propertyNames: fieldName }),
      required: Type.Optional(fieldNames),
    }),
  ),
  /** Columns of the finder, in order; defaults to every field. */
  columns: Type.Optional(fieldNames),
  references: Type.Optional(fieldsRecord(CatalogReference)),
  /** Text fields an entry gives in every language (core/i18n/localized.ts). */
  translatable: Type.Optional(Type.Array(fieldName, { uniqueItems: true })),
  /** Number fields that are amounts of money, each with its ISO 4217 currency ("NZD"). */
  money: Type.Optional(fieldsRecord(currencyCode)),
  labels: strict({ en: CatalogLabels, fr: CatalogLabels }),
});
export type CatalogDefinition = Static<typeof CatalogDefinition>;

export const catalogMetaSchema = definitionFile('catalog', CatalogDefinition);
