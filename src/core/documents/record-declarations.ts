/**
 * What a workflow declares about its records for code that is not the document service: the
 * field that identifies a record (`key`), and what the identity server and its directory read of
 * accounts, user groups, password policies and access units (`account`, `userGroup`,
 * `passwordPolicy`, `accessUnit`). Every pointer is a JSON pointer into the document data; the
 * loader checks each names a field of the workflow's schema (docs/identity.md, "The account
 * declarations").
 */

/**
 * The field that identifies a record of the type: unique within the type, compared without
 * regard to case, and indexed (`lower(value)`) at start.
 */
export interface RecordKey {
  pointer: string;
  /**
   * A deleted record keeps its key (an account can be restored, so its login stays taken);
   * otherwise deleting a record frees its key for a new one.
   */
  keptWhenDeleted: boolean;
}

/** True when the text at `pointer` equals `equals`. */
export interface FieldTest {
  pointer: string;
  equals: string;
}

/**
 * One way of naming an account: the non-empty values of `fields` joined by a space, used when
 * `when` holds (or always, without `when`) and at least one of the fields has a value.
 */
export interface DisplayNameRule {
  when?: FieldTest;
  fields: string[];
}

/**
 * A field whose value is the code of an entry of a catalogue that governs other fields: each of
 * `checks` maps a flag of the entry (`MANDATORY`, `OPTIONAL`, `PROHIBITED`) to the field it
 * governs. The entry's `selfRegistration` says whether one may register as it.
 */
export interface CatalogTypedField {
  pointer: string;
  catalog: string;
  checks: Record<string, string>;
}

/**
 * The account workflow's documents are the identity server's accounts. The login is the
 * workflow's `key`; the language is its `holderLanguage`.
 */
export interface AccountDeclaration {
  /** How the account is named, the first rule giving a name winning; the login otherwise. */
  name: DisplayNameRule[];
  email: string;
  mobile: string;
  /** The holder may sign in (and holds roles) in these statuses when `active` holds. */
  signIn: { statuses: string[]; active: FieldTest };
  /** The code of the user group the account belongs to. */
  group: string;
  /** The codes of the account's own access units (beside its groups' default ones). */
  accessUnits: string;
  /** Flags the identity server enforces at the next sign-in, then clears. */
  security: { forcePasswordChange: string; forceTotp: string };
  /** The user type: its catalogue entry decides the fields and the default group. */
  userType: CatalogTypedField;
  /** The group of an account whose user type's entry names none (`defaultGroup`). */
  fallbackGroup: string;
  /** The identity document's type, checked at registration when given. */
  identityType?: CatalogTypedField;
  /** The accounts that are services, not people: they may hold API credentials. */
  service?: FieldTest;
  /**
   * The fields naming the catalogue entry (agency, agent, trader) whose contact receives the
   * registration's confirmation code when that channel is chosen, by channel.
   */
  confirmationCodes?: Partial<Record<'agency' | 'agent' | 'trader', string>>;
}

/** User groups: an account's group and its parents give their default access units and policy. */
export interface UserGroupDeclaration {
  /** The code of the parent group. */
  parent: string;
  /** The codes of the access units every member holds. */
  accessUnits: string;
  /** The code of the group's password policy (else the parent's, else the default policy). */
  passwordPolicy: string;
  /** An inactive group gives nothing and ends the walk up its parents. */
  inactive: FieldTest;
}

/** Password policies: the object of rules (minimumLength, ...) the identity server applies. */
export interface PasswordPolicyDeclaration {
  rules: string;
  /** The key of the policy used when no group names one. */
  default: string;
}

/** Access units: the codes of the access roles a unit gives. */
export interface AccessUnitDeclaration {
  roles: string;
}
