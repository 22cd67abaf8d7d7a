/** The definitions an analyst writes (catalogs/, schemas/, workflows/, translations/), shaped in ./shapes/. */
import type { TextTree, Language } from '../i18n/translate';
import type { WorkflowDefinition } from '../documents/workflow';
import type { CatalogDefinition, CatalogReference } from './shapes/catalog';
import type { EntityDefinition } from './shapes/entity';
import type { ModuleDefinition } from './shapes/modules';

export type { WorkflowDefinition };
export type * from './shapes/catalog';
export type * from './shapes/entity';
export type * from './shapes/modules';
export type { JsonSchema, JsonValue } from './json';

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
