import { fullRoles, type WorkflowDefinition } from '../documents/workflow';
import {
  catalogReaderRoles,
  CATALOG_MODULE,
  DASHBOARD_MODULE,
  isEnabled,
  isModuleEnabled,
  type CatalogDefinition,
  type ModuleDefinition,
} from './types';
import { sharesCodes, STATUS_CHECK_PATH } from './status-check';

/** A route of the portal and who may open it; `npm run routes` prints these. */
export interface PortalRoute {
  path: string;
  roles: string[];
  public: boolean;
}

/** Pages that need no sign-in (specification 000 section 2, DESIGN.md section 2). */
export const PUBLIC_PAGES = ['/home', '/401', '/403', '/offline'] as const;

/** The dashboard module's pages (specification 000 section 2; DESIGN.md section 2). */
export const DASHBOARD_PAGES = [
  '/dashboard/home',
  '/dashboard/my-library',
  '/dashboard/my-tasks',
] as const;

/** Roles that open the dashboard and profile pages. */
export const PROFILE_ROLES = ['view-profile', 'manage-account'] as const;

export const CATALOG_ROUTE_PREFIX = '/catalog/search';

export function catalogRoutePath(catalogId: string): string {
  return `${CATALOG_ROUTE_PREFIX}/${catalogId}`;
}

/** Every route of the portal, computed from the definitions only. */
export function portalRoutes(definitions: {
  modules: ModuleDefinition[];
  catalogs: CatalogDefinition[];
  workflows: WorkflowDefinition[];
}): PortalRoute[] {
  const routes: PortalRoute[] = PUBLIC_PAGES.map((path) => ({ path, roles: [], public: true }));
  if (isModuleEnabled(definitions, DASHBOARD_MODULE))
    for (const path of DASHBOARD_PAGES)
      routes.push({ path, roles: [...PROFILE_ROLES], public: false });
  for (const workflow of definitions.workflows)
    for (const page of [...workflow.lists, ...workflow.screens])
      routes.push({
        path: `${workflow.prefix}${page.path}`,
        roles: fullRoles(workflow, page.roles),
        public: false,
      });
  // A team view (`workload`): for those who may take its assigning action.
  for (const workflow of definitions.workflows)
    if (workflow.workload)
      routes.push({
        path: `${workflow.prefix}${workflow.workload.path}`,
        roles: fullRoles(workflow, workflow.actions[workflow.workload.action]?.roles ?? []),
        public: false,
      });
  const catalogs = isModuleEnabled(definitions, CATALOG_MODULE) ? definitions.catalogs : [];
  for (const catalog of catalogs.filter(isEnabled))
    routes.push({
      path: catalogRoutePath(catalog.id),
      roles: catalogReaderRoles(catalog),
      public: false,
    });
  // The public status check, when a document type shares codes (`shareCodes`).
  if (definitions.workflows.some(sharesCodes))
    routes.push({ path: STATUS_CHECK_PATH, roles: [], public: true });
  return routes.sort((a, b) => a.path.localeCompare(b.path));
}
