/** What a workflow declares of its records for the identity server (docs/identity.md). */
import { catalogId, dataPointer, filled, record, some, strict, Type, type Static } from './kit';

/** The field identifying a record: unique within the type, case-insensitive; kept on deletion when `keptWhenDeleted`. */
export const RecordKey = strict({ pointer: dataPointer, keptWhenDeleted: Type.Boolean() });
export type RecordKey = Static<typeof RecordKey>;

/** True when the text at `pointer` equals `equals`. */
export const FieldTest = strict({ pointer: dataPointer, equals: Type.String() });
export type FieldTest = Static<typeof FieldTest>;

/** One way of naming an account: the non-empty values of `fields`, when `when` holds. */
export const DisplayNameRule = strict({
  when: Type.Optional(FieldTest),
  fields: some(dataPointer),
});

/** A field naming a catalogue entry whose flags (`checks`) govern other fields. */
export const CatalogTypedField = strict({
  pointer: dataPointer,
  catalog: catalogId,
  checks: record(dataPointer),
});

/** The account workflow's documents are the identity server's accounts. */
export const AccountDeclaration = strict({
  /** How the account is named, the first rule giving a name winning; the login otherwise. */
  name: some(DisplayNameRule),
  email: dataPointer,
  mobile: dataPointer,
  /** The holder may sign in (and holds roles) in these statuses when `active` holds. */
  signIn: strict({
    statuses: some(Type.String(), { uniqueItems: true }),
    active: FieldTest,
  }),
  /** The code of the user group the account belongs to. */
  group: dataPointer,
  /** The codes of the account's own access units (beside its groups' default ones). */
  accessUnits: dataPointer,
  /** Flags the identity server enforces at the next sign-in, then clears. */
  security: strict({ forcePasswordChange: dataPointer, forceTotp: dataPointer }),
  /** The user type: its catalogue entry decides the fields and the default group. */
  userType: CatalogTypedField,
  /** The group of an account whose user type's entry names none (`defaultGroup`). */
  fallbackGroup: filled,
  /** The identity document's type, checked at registration when given. */
  identityType: Type.Optional(CatalogTypedField),
  /** The accounts that are services, not people: they may hold API credentials. */
  service: Type.Optional(FieldTest),
  /** The fields naming the entry whose contact receives the registration's code, by channel. */
  confirmationCodes: Type.Optional(
    strict({
      agency: Type.Optional(dataPointer),
      agent: Type.Optional(dataPointer),
      trader: Type.Optional(dataPointer),
    }),
  ),
});
export type AccountDeclaration = Static<typeof AccountDeclaration>;

/** User groups: an account's group and its parents give their default access units and policy. */
export const UserGroupDeclaration = strict({
  parent: dataPointer,
  accessUnits: dataPointer,
  /** The code of the group's password policy (else the parent's, else the default policy). */
  passwordPolicy: dataPointer,
  /** An inactive group gives nothing and ends the walk up its parents. */
  inactive: FieldTest,
});
export type UserGroupDeclaration = Static<typeof UserGroupDeclaration>;

/** Password policies: where the rules are, and the policy used when no group names one. */
export const PasswordPolicyDeclaration = strict({ rules: dataPointer, default: filled });
export type PasswordPolicyDeclaration = Static<typeof PasswordPolicyDeclaration>;

/** Access units: the codes of the access roles a unit gives. */
export const AccessUnitDeclaration = strict({ roles: dataPointer });
export type AccessUnitDeclaration = Static<typeof AccessUnitDeclaration>;
