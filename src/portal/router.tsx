import { StandaloneLayout } from './StandaloneLayout';
import { RegisterPage, RegistrationSuccessPage } from './pages/account/RegisterPage';
import { PasswordPage } from './pages/account/PasswordPage';
import { createHashRouter, Navigate, type RouteObject } from 'react-router-dom';
import type { DefinitionBundle } from '../core/definitions/types';
import { fullRoles } from '../core/documents/workflow';
import { DocumentListPage } from './pages/DocumentListPage';
import { DocumentScreenPage } from './pages/DocumentScreenPage';
import { RequireRoles } from './RequireRoles';
import { CATALOG_ROUTE_PREFIX } from '../core/definitions/routes';
import { usePortal } from './context';
import { Layout } from './Layout';
import { DASHBOARD_HOME_PATH, DASHBOARD_ROLES, HOME_PATH } from './paths';
import { CatalogSearchPage } from './pages/CatalogSearchPage';
import { DashboardHomePage } from './pages/DashboardHomePage';
import { HomePage } from './pages/HomePage';
import { NotFoundPage, OfflinePage, UnauthorizedPage } from './pages/MessagePage';

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

/**
 * `/` and `/home` (specification 000, section 2): a signed-in user goes to /dashboard/home;
 * a signed-out user sees the public home page. A signed-in user who may not open the dashboard
 * (no view-profile or manage-account role) stays on the public home page rather than being
 * sent round /403 and back.
 */
function HomeRoute({ root }: { root: boolean }) {
  const { session } = usePortal();
  if (session.signedIn && session.hasAnyRole(DASHBOARD_ROLES))
    return <Navigate to={DASHBOARD_HOME_PATH} replace />;
  if (root) return <Navigate to={HOME_PATH} replace />;
  return <HomePage />;
}

/**
 * The profile pages (specification 001: /profile, /profile/edit) are the person's own account
 * document, shown by the account workflow's profile screens.
 */
function OwnAccount({ to }: { to: string }) {
  const { session } = usePortal();
  return (
    <RequireRoles roles={DASHBOARD_ROLES}>
      <Navigate to={to.replace(':id', session.subject ?? '')} replace />
    </RequireRoles>
  );
}

/** Hash routes built from the definitions, so the server only ever serves index.html at `/`. */
export function createPortalRouter(bundle: DefinitionBundle) {
  return createHashRouter([
    {
      element: <StandaloneLayout />,
      children: [
        { path: '/register', element: <RegisterPage /> },
        { path: '/success', element: <RegistrationSuccessPage /> },
      ],
    },
    {
      element: <Layout />,
      children: [
        { path: '/', element: <HomeRoute root /> },
        { path: HOME_PATH, element: <HomeRoute root={false} /> },
        {
          path: DASHBOARD_HOME_PATH,
          element: (
            <RequireRoles roles={DASHBOARD_ROLES}>
              <DashboardHomePage />
            </RequireRoles>
          ),
        },
        { path: `${CATALOG_ROUTE_PREFIX}/:catalogId`, element: <CatalogSearchPage /> },
        ...workflowRoutes(bundle),
        {
          path: '/connectid/profile',
          element: <OwnAccount to="/connectid/accounts/profile/:id" />,
        },
        {
          path: '/connectid/profile/edit',
          element: <OwnAccount to="/connectid/accounts/profile/edit/:id" />,
        },
        {
          path: '/connectid/profile/password',
          element: (
            <RequireRoles roles={DASHBOARD_ROLES}>
              <PasswordPage />
            </RequireRoles>
          ),
        },
        { path: '/401', element: <UnauthorizedPage /> },
        { path: '/403', element: <UnauthorizedPage /> },
        { path: '/offline', element: <OfflinePage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
