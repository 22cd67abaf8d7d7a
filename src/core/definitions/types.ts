/**
 * The shapes of the definitions an analyst or administrator writes: plain JSON files in
 * catalogs/, schemas/, workflows/ and translations/. The server loads and checks them; the
 * browser receives them at run time.
 */
import type { TextTree, Language } from '../i18n/translate';
import type { RuleUse } from '../rules/types';
import type { WorkflowDefinition } from '../documents/workflow';

export type { WorkflowDefinition };

export type { JsonSchema, JsonValue } from './json';
import type { JsonSchema, JsonValue } from './json';

export interface CatalogLabels {
  title: string;
  fields: Record<string, string>;
}

export interface CatalogReference {
  /** Id of the catalogue the field's value names by key (its single key field). */
  catalog: string;
  /**
   * Where another field of the entry says which catalogue is named (a declaration's `type`:
   * 1 a document, 2 a sub-document): that field, and the catalogue for each of its values.
   * `catalog` stays the one used when the field holds none of them.
   */
  byField?: string;
  catalogs?: Record<string, string>;
}

/** Every catalogue a reference may name. */
export function referencedCatalogs(reference: CatalogReference): string[] {
  return [...new Set([reference.catalog, ...Object.values(reference.catalogs ?? {})])];
}

/** The catalogue a reference field of `entry` names, following `byField` when there is one. */
export function referencedCatalog(
  reference: CatalogReference,
  entry: Record<string, unknown>,
): string {
  if (!reference.byField || !reference.catalogs) return reference.catalog;
  const chooser = entry[reference.byField];
  return reference.catalogs[String(chooser ?? '')] ?? reference.catalog;
}

export interface CatalogDefinition {
  id: string;
  /** Menu category; dots become dashes in the menu (asypx, sso, operators, configuration). */
  category: string;
  enabled?: boolean;
  /** Comma list of roles that may search and read entries. */
  searcherRoles: string;
  /** Comma list of roles that may create, edit and delete entries. */
  managerRoles: string;
  /** Fields that identify an entry; with the validity period they are unique. */
  key: string[];
  /** Why the key was chosen where the specification does not show one. */
  keyNote?: string;
  /** JSON Schema of an entry's own fields (startTime and endTime are added for every catalogue). */
  schema: JsonSchema;
  /** Columns of the finder, in order; defaults to every field. */
  columns?: string[];
  references?: Record<string, CatalogReference>;
  /**
   * Text fields an entry gives in every language (a document's name, a question): the field
   * keeps the English text, the others' sit in the entry's `i18n` (core/i18n/localized.ts), and
   * whatever shows the field shows the reader's language.
   */
  translatable?: string[];
  /** Number fields that are amounts of money, each with its ISO 4217 currency ("NZD"). */
  money?: Record<string, string>;
  labels: Record<Language, CatalogLabels>;
}

export interface EntitySection {
  id: string;
  /** Filled by officers (assignment, issuance...): applicants never edit it. */
  officer?: boolean;
  /**
   * The service's own workings (assignment, issuance, internal references): shown only to the
   * holders of the workflow's `seeAll` roles, never to the document's owner, who never writes
   * it either (it counts as an officer section).
   */
  internal?: boolean;
  /**
   * The section applies only when the value at `pointer` is one of `in` (a natural person's
   * details when the sponsor type says so): otherwise the form leaves it out, and the server
   * drops its data before validating, so what no longer applies is neither asked nor kept.
   */
  when?: SectionCondition;
}

/**
 * When a section (or a field: its uiSchema's `ui:options.when`, core/definitions/conditional-
 * fields.ts) applies: the value at a JSON pointer of the document is one of `in`.
 */
export interface SectionCondition {
  pointer: string;
  in: JsonValue[];
}

/** A value a catalogue list source compares an entry's field with. */
export type CatalogListMatch = { value: string } | { pointer: string };

/** Where the items of a catalogue list come from: one catalogue, the entries that match. */
export interface CatalogListSource {
  catalog: string;
  /** Entry field -> what it must equal: a fixed value, or the document's value at a pointer. */
  where?: Record<string, CatalogListMatch>;
  /** Item field -> entry field it is copied from. */
  fields: Record<string, string>;
}

/**
 * An array of the document the server fills from catalogues (the character questions, the
 * attachments of the chosen document): one item per matching entry valid at submission, what
 * the applicant gave (`keep`: an answer, a file) carried over by `key`. The browser cannot add,
 * drop or reword an item: the server rebuilds the list on every save.
 */
export interface CatalogList {
  path: string;
  key: string;
  keep: string[];
  /** Item field numbered 1, 2... in list order (a question's rank). */
  position?: string;
  sources: CatalogListSource[];
}

export interface EntityDefinition {
  id: string;
  schema: JsonSchema;
  uiSchema?: JsonSchema;
  sections: EntitySection[];
  rules?: RuleUse[];
  catalogLists?: CatalogList[];
}

/**
 * A module of the portal (modules.json): its route prefix, and whether it is on. A workflow
 * belongs to the module whose prefix starts its own; a module switched off has no workflows,
 * routes or menu entries, and the server serves none of its documents.
 */
export interface ModuleDefinition {
  id: string;
  /** First segment of every route of the module, e.g. `/visa`. */
  prefix: string;
  enabled: boolean;
}

/** Modules the portal itself provides pages for (the others are made of workflows). */
export const DASHBOARD_MODULE = 'dashboard';
export const CATALOG_MODULE = 'catalog';

/** Whether the module `id` is declared and switched on. */
export function isModuleEnabled(bundle: Pick<DefinitionBundle, 'modules'>, id: string): boolean {
  return bundle.modules.some((module) => module.id === id && module.enabled);
}

/** The declared module whose prefix starts `path` (a route or a workflow's prefix). */
export function moduleOfPath(
  modules: readonly ModuleDefinition[],
  path: string,
): ModuleDefinition | undefined {
  return modules.find((module) => path === module.prefix || path.startsWith(`${module.prefix}/`));
}

/** Everything the server hands to the browser at run time. */
export interface DefinitionBundle {
  modules: ModuleDefinition[];
  catalogs: CatalogDefinition[];
  schemas: EntityDefinition[];
  workflows: WorkflowDefinition[];
  translations: Record<Language, TextTree>;
  /** Content hash of the bundle, so the browser and caches can tell versions apart. */
  version: string;
}

/** Splits a comma list of roles ("catalog-read, catalog-manage") into role codes. */
export function roleList(commaList: string): string[] {
  return commaList
    .split(',')
    .map((role) => role.trim())
    .filter((role) => role.length > 0);
}

/** Roles that open a catalogue's search page: its searchers and its managers. */
export function catalogReaderRoles(catalog: CatalogDefinition): string[] {
  return [...new Set([...roleList(catalog.searcherRoles), ...roleList(catalog.managerRoles)])];
}

export function isEnabled(catalog: CatalogDefinition): boolean {
  return catalog.enabled !== false;
}
