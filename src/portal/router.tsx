import { StandaloneLayout } from './StandaloneLayout';
import { createHashRouter, Navigate, useSearchParams, type RouteObject } from 'react-router-dom';
import type { ReactNode } from 'react';
import {
  CATALOG_MODULE,
  DASHBOARD_MODULE,
  isModuleEnabled,
  type DefinitionBundle,
} from '../core/definitions/types';
import { fullRoles, type ScreenMode } from '../core/documents/workflow';
import { RequireRoles } from './RequireRoles';
import { CATALOG_ROUTE_PREFIX } from '../core/definitions/routes';
import { usePortal } from './context';
import { Layout } from './Layout';
import {
  DASHBOARD_HOME_PATH,
  DASHBOARD_ROLES,
  HOME_PATH,
  MY_LIBRARY_PATH,
  MY_TASKS_PATH,
} from './paths';
import { HomePage } from './pages/HomePage';
import { NotFoundPage, OfflinePage, UnauthorizedPage } from './pages/MessagePage';
import { lazyPage } from './lazyPage';

/*
 * Every page but the home page, the message pages and the layouts is fetched when first opened
 * (lazyPage): the public home page loads none of the form engine, finders or registration.
 * Declare a new page here the same way.
 */
const RegisterPage = lazyPage(() =>
  import('./pages/account/RegisterPage').then((m) => m.RegisterPage),
);
const RegistrationSuccessPage = lazyPage(() =>
  import('./pages/account/RegisterPage').then((m) => m.RegistrationSuccessPage),
);
const PasswordPage = lazyPage(() =>
  import('./pages/account/PasswordPage').then((m) => m.PasswordPage),
);
const DocumentListPage = lazyPage(() =>
  import('./pages/DocumentListPage').then((m) => m.DocumentListPage),
);
const PaymentScreenPage = lazyPage(() =>
  import('./pages/PaymentScreenPage').then((m) => m.PaymentScreenPage),
);
const DocumentScreenPage = lazyPage(() =>
  import('./pages/DocumentScreenPage').then((m) => m.DocumentScreenPage),
);
const CatalogSearchPage = lazyPage(() =>
  import('./pages/CatalogSearchPage').then((m) => m.CatalogSearchPage),
);
const DashboardHomePage = lazyPage(() =>
  import('./pages/DashboardHomePage').then((m) => m.DashboardHomePage),
);
const MyLibraryPage = lazyPage(() =>
  import('./pages/dashboard/MyLibraryPage').then((m) => m.MyLibraryPage),
);
const MyTasksPage = lazyPage(() =>
  import('./pages/dashboard/MyTasksPage').then((m) => m.MyTasksPage),
);

/** The dashboard module's pages (modules.json), behind view-profile or manage-account. */
function dashboardRoutes(bundle: DefinitionBundle): RouteObject[] {
  if (!isModuleEnabled(bundle, DASHBOARD_MODULE)) return [];
  const pages: Array<[string, ReactNode]> = [
    [DASHBOARD_HOME_PATH, <DashboardHomePage key="home" />],
    [MY_LIBRARY_PATH, <MyLibraryPage key="library" />],
    [MY_TASKS_PATH, <MyTasksPage key="tasks" />],
  ];
  return pages.map(([path, page]) => ({
    path,
    element: <RequireRoles roles={DASHBOARD_ROLES}>{page}</RequireRoles>,
  }));
}

/** Screens of a payable workflow that the payment pages draw rather than the document form. */
const PAYMENT_MODES: ReadonlySet<ScreenMode> = new Set<ScreenMode>([
  'confirmation',
  'initiate',
  'payment',
  'payment-integration',
  'finalisation',
  'print',
]);

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
          {workflow.payment && PAYMENT_MODES.has(screen.mode) ? (
            <PaymentScreenPage
              key={`${workflow.id}${screen.path}`}
              workflow={workflow}
              screen={screen}
            />
          ) : (
            <DocumentScreenPage
              key={`${workflow.id}${screen.path}`}
              workflow={workflow}
              screen={screen}
            />
          )}
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
  const { session, bundle } = usePortal();
  const dashboard = isModuleEnabled(bundle, DASHBOARD_MODULE);
  // A scanned e-visa QR code (/home?number=...) shows the document check, signed in or not.
  const [searchParams] = useSearchParams();
  const checking = searchParams.has('number');
  if (dashboard && !checking && session.signedIn && session.hasAnyRole(DASHBOARD_ROLES))
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
        ...dashboardRoutes(bundle),
        ...(isModuleEnabled(bundle, CATALOG_MODULE)
          ? [{ path: `${CATALOG_ROUTE_PREFIX}/:catalogId`, element: <CatalogSearchPage /> }]
          : []),
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
