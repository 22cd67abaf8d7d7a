/** What a workflow declares about its records (src/core/definitions/shapes/records.ts). */
export type {
  AccessUnitDeclaration,
  AccountDeclaration,
  CatalogTypedField,
  DisplayNameRule,
  FieldTest,
  PasswordPolicyDeclaration,
  RecordKey,
  UserGroupDeclaration,
} from '../definitions/shapes/records';
