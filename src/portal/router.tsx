import { createHashRouter, Navigate, type RouteObject } from 'react-router-dom';
import type { DefinitionBundle } from '../core/definitions/types';
import { fullRoles } from '../core/documents/workflow';
import { DocumentListPage } from './pages/DocumentListPage';
import { DocumentScreenPage } from './pages/DocumentScreenPage';
import { RequireRoles } from './RequireRoles';
import { CATALOG_ROUTE_PREFIX } from '../core/definitions/routes';
import { Layout } from './Layout';
import { CatalogSearchPage } from './pages/CatalogSearchPage';
import { HomePage } from './pages/HomePage';
import { NotFoundPage, UnauthorizedPage } from './pages/MessagePage';

/** Every list and screen of every workflow, each behind the roles its definition names. */
function workflowRoutes(bundle: DefinitionBundle): RouteObject[] {
  return bundle.workflows.flatMap((workflow) => [
    ...workflow.lists.map((list) => ({
      path: `${workflow.prefix}${list.path}`,
      element: (
        <RequireRoles roles={fullRoles(workflow, list.roles)}>
          <DocumentListPage workflow={workflow} list={list} />
        </RequireRoles>
      ),
    })),
    ...workflow.screens.map((screen) => ({
      path: `${workflow.prefix}${screen.path}`,
      element: (
        <RequireRoles roles={fullRoles(workflow, screen.roles)}>
          <DocumentScreenPage
            key={`${workflow.id}${screen.path}`}
            workflow={workflow}
            screen={screen}
          />
        </RequireRoles>
      ),
    })),
  ]);
}

/** Hash routes built from the definitions, so the server only ever serves index.html at `/`. */
export function createPortalRouter(bundle: DefinitionBundle) {
  return createHashRouter([
    {
      element: <Layout />,
      children: [
        { path: '/', element: <Navigate to="/home" replace /> },
        { path: '/home', element: <HomePage /> },
        { path: `${CATALOG_ROUTE_PREFIX}/:catalogId`, element: <CatalogSearchPage /> },
        ...workflowRoutes(bundle),
        { path: '/401', element: <UnauthorizedPage /> },
        { path: '/403', element: <UnauthorizedPage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
