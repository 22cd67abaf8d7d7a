import { fullRoles, type WorkflowDefinition } from '../documents/workflow';
import { catalogReaderRoles, isEnabled, type CatalogDefinition } from './types';

/** A route of the portal and who may open it; `npm run routes` prints these. */
export interface PortalRoute {
  path: string;
  roles: string[];
  public: boolean;
}

/** Pages that need no sign-in (specification 000 section 2, DESIGN.md section 2). */
export const PUBLIC_PAGES = ['/home', '/401', '/403', '/offline'] as const;

export const CATALOG_ROUTE_PREFIX = '/catalog/search';

export function catalogRoutePath(catalogId: string): string {
  return `${CATALOG_ROUTE_PREFIX}/${catalogId}`;
}

/** Every route of the portal, computed from the definitions only. */
export function portalRoutes(definitions: {
  catalogs: CatalogDefinition[];
  workflows: WorkflowDefinition[];
}): PortalRoute[] {
  const routes: PortalRoute[] = PUBLIC_PAGES.map((path) => ({ path, roles: [], public: true }));
  for (const workflow of definitions.workflows) {
    for (const page of [...workflow.lists, ...workflow.screens]) {
      routes.push({
        path: `${workflow.prefix}${page.path}`,
        roles: fullRoles(workflow, page.roles),
        public: false,
      });
    }
  }
  for (const catalog of definitions.catalogs.filter(isEnabled)) {
    routes.push({
      path: catalogRoutePath(catalog.id),
      roles: catalogReaderRoles(catalog),
      public: false,
    });
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path));
}
