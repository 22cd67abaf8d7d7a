import { DEVELOPER_OUTBOX_PATH, DEVELOPER_OUTBOX_ROLE } from '../core/definitions/developer-pages';
import { STUDIO_PATH, STUDIO_ROLES } from '../core/definitions/studio-roles';
import { AUDIT_PATH, AUDIT_ROLES } from '../core/definitions/audit-roles';
import { followScreen } from './screen';
import { FINANCE_ROLE } from '../core/payments/report';
import { RETENTION_MANAGE_ROLE, RETENTION_PATH } from '../core/retention/plan';
import { StandaloneLayout } from './StandaloneLayout';
import {
  createHashRouter,
  matchRoutes,
  Navigate,
  useSearchParams,
  type RouteObject,
} from 'react-router-dom';
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
  PAYMENT_REPORT_PAGE_PATH,
  HOME_PATH,
  MY_LIBRARY_PATH,
  MY_TASKS_PATH,
} from './paths';
import type { PortalModule } from '../engine/module';
import { HomePage } from './pages/HomePage';
import { NotFoundPage, OfflinePage, UnauthorizedPage } from './pages/MessagePage';
import { lazyPage, type LazyPage } from './lazyPage';
import { entityValidators } from '../engine/form/loadEntityValidators';
import { flushEdits } from '../engine/form/pendingEdits';
import type { DocumentParts } from './definitions';
import { DocumentsGate } from './DocumentsGate';
import { editsSections } from './screenModes';
import { editableSections, openingSection } from './pages/document/opening-section';
import { numberHistoryEntries } from './historyIndex';
import { certificateRoutes } from './certificateRoutes';
import { sharesCodes, STATUS_CHECK_PATH } from '../core/definitions/status-check';

/*
 * Every page but the home page, the message pages and the layouts is fetched when first opened
 * (lazyPage): the public home page loads none of the form engine, finders or a module's pages.
 * Declare a new page here the same way.
 */
const DeveloperOutboxPage = lazyPage(() =>
  import('./pages/dev/DeveloperOutboxPage').then((m) => m.DeveloperOutboxPage),
);
const AuditPage = lazyPage(() => import('./pages/AuditPage').then((m) => m.AuditPage));
const StudioPage = lazyPage(() => import('./pages/studio/StudioPage').then((m) => m.StudioPage));
const DocumentListPage = lazyPage(() =>
  import('./pages/DocumentListPage').then((m) => m.DocumentListPage),
);
const PaymentScreenPage = lazyPage(() =>
  import('./pages/PaymentScreenPage').then((m) => m.PaymentScreenPage),
);
const DocumentScreenPage = lazyPage(() =>
  import('./pages/DocumentScreenPage').then((m) => m.DocumentScreenPage),
);
const RefundApprovalsPage = lazyPage(() =>
  import('./pages/RefundApprovalsPage').then((m) => m.RefundApprovalsPage),
);
const WorkloadPage = lazyPage(() => import('./pages/WorkloadPage').then((m) => m.WorkloadPage));
const CatalogSearchPage = lazyPage(() =>
  import('./pages/CatalogSearchPage').then((m) => m.CatalogSearchPage),
);
const DashboardHomePage = lazyPage(() =>
  import('./pages/DashboardHomePage').then((m) => m.DashboardHomePage),
);
const MyLibraryPage = lazyPage(() =>
  import('./pages/dashboard/MyLibraryPage').then((m) => m.MyLibraryPage),
);
const RetentionPlanPage = lazyPage(() =>
  import('./pages/RetentionPlanPage').then((m) => m.RetentionPlanPage),
);
const PaymentReportPage = lazyPage(() =>
  import('./pages/PaymentReportPage').then((m) => m.PaymentReportPage),
);
const MyTasksPage = lazyPage(() =>
  import('./pages/dashboard/MyTasksPage').then((m) => m.MyTasksPage),
);
const StatusCheckPage = lazyPage(() =>
  import('./pages/StatusCheckPage').then((m) => m.StatusCheckPage),
);

/** A route to a lazy page behind roles; the route preloads its code. */
function guarded(path: string, Page: LazyPage<object>, roles: readonly string[]): RouteObject {
  return {
    path,
    element: (
      <RequireRoles roles={roles}>
        <Page />
      </RequireRoles>
    ),
    handle: preloading(Page.preload),
  };
}

/** The dashboard module's pages (modules.json), behind view-profile or manage-account. */
function dashboardRoutes(bundle: DefinitionBundle): RouteObject[] {
  if (!isModuleEnabled(bundle, DASHBOARD_MODULE)) return [];
  return [
    guarded(DASHBOARD_HOME_PATH, DashboardHomePage, DASHBOARD_ROLES),
    guarded(MY_LIBRARY_PATH, MyLibraryPage, DASHBOARD_ROLES),
    guarded(MY_TASKS_PATH, MyTasksPage, DASHBOARD_ROLES),
  ];
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
function workflowRoutes(bundle: DefinitionBundle, parts?: DocumentParts): RouteObject[] {
  // A document's screens may offer to write a message: the inbox's form.
  const inbox = bundle.workflows.find((workflow) => workflow.inbox)?.document;
  return bundle.workflows.flatMap((workflow) => {
    const listDocuments = [workflow.document];
    const screenDocuments = inbox ? [workflow.document, inbox] : listDocuments;
    const loadParts = (documents: string[]) => () =>
      void parts?.load(documents).catch(() => undefined);
    return [
      ...workflow.lists.map((list) => ({
        path: `${workflow.prefix}${list.path}`,
        handle: preloading(DocumentListPage.preload, loadParts(listDocuments)),
        element: (
          <RequireRoles roles={fullRoles(workflow, list.roles)}>
            <DocumentsGate parts={parts} documents={listDocuments}>
              <DocumentListPage workflow={workflow} list={list} />
            </DocumentsGate>
          </RequireRoles>
        ),
      })),
      // The team view (`workload`), for those who may take its assigning action.
      ...(workflow.workload
        ? [
            {
              path: `${workflow.prefix}${workflow.workload.path}`,
              handle: preloading(WorkloadPage.preload),
              element: (
                <RequireRoles
                  roles={fullRoles(
                    workflow,
                    workflow.actions[workflow.workload.action]?.roles ?? [],
                  )}
                >
                  <WorkloadPage key={`${workflow.id}/workload`} workflow={workflow} />
                </RequireRoles>
              ),
            },
          ]
        : []),
      ...workflow.screens.map((screen) => {
        // Refunds waiting for approval: a page of the workflow's refunds, not of one document.
        if (screen.mode === 'refund-approvals')
          return {
            path: `${workflow.prefix}${screen.path}`,
            handle: preloading(RefundApprovalsPage.preload),
            element: (
              <RequireRoles roles={fullRoles(workflow, screen.roles)}>
                <RefundApprovalsPage
                  key={`${workflow.id}${screen.path}`}
                  workflow={workflow}
                  screen={screen}
                />
              </RequireRoles>
            ),
          };
        const payment = workflow.payment && PAYMENT_MODES.has(screen.mode);
        const Page = payment ? PaymentScreenPage : DocumentScreenPage;
        return {
          path: `${workflow.prefix}${screen.path}`,
          handle: preloading(Page.preload, loadParts(screenDocuments), () => {
            if (payment || !editsSections(screen)) return;
            // The validators of the section the form will open on (a few kilobytes), fetched
            // alongside the page's code instead of after it (the page decides for good).
            const sections = parts?.sections(workflow.document) ?? [];
            const editable = editableSections(sections, screen);
            const opening = openingSection(sections, screen, editable, false, screen.hidden ?? []);
            if (opening)
              entityValidators(workflow.document)
                .loadSection(opening)
                .catch(() => undefined);
          }),
          element: (
            <RequireRoles roles={fullRoles(workflow, screen.roles)}>
              <DocumentsGate parts={parts} documents={screenDocuments}>
                <Page key={`${workflow.id}${screen.path}`} workflow={workflow} screen={screen} />
              </DocumentsGate>
            </RequireRoles>
          ),
        };
      }),
    ];
  });
}

/**
 * `/` and `/home` (specification 000, section 2): a signed-in user who may open the dashboard
 * goes to /dashboard/home (anyone else stays on the public home page, not sent round /403).
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
 * The pages of the modules given (the portal's composition root, src/portal/main.tsx) that are
 * on (modules.json): standalone ones, or those inside the portal's layout. Each behind its
 * roles and its guard, waiting for the definitions of the document types it shows.
 */
function modulePages(
  modules: readonly PortalModule[],
  standalone: boolean,
  bundle: DefinitionBundle,
  parts?: DocumentParts,
): RouteObject[] {
  return modules
    .filter((module) => isModuleEnabled(bundle, module.id))
    .flatMap((module) => module.pages ?? [])
    .filter((page) => Boolean(page.standalone) === standalone)
    .map(({ path, page: Page, roles, guard: Guard, documents }) => {
      const shown = documents?.(bundle) ?? [];
      let element = <Page />;
      if (documents)
        element = (
          <DocumentsGate parts={parts} documents={shown}>
            {element}
          </DocumentsGate>
        );
      if (Guard) element = <Guard>{element}</Guard>;
      if (roles) element = <RequireRoles roles={roles}>{element}</RequireRoles>;
      const loadParts = () => void parts?.load(shown).catch(() => undefined);
      const preloads = [Page.preload, documents && loadParts].filter((preload) => !!preload);
      return { path, element, ...(preloads.length ? { handle: preloading(...preloads) } : {}) };
    });
}

/**
 * Hash routes built from the definitions, so the server only ever serves index.html at `/`.
 * With `parts`, the pages of a document type wait for its definitions part (fetched as the
 * route opens); without, the bundle is whole.
 */
function portalRoutes(
  bundle: DefinitionBundle,
  parts?: DocumentParts,
  modules: readonly PortalModule[] = [],
): RouteObject[] {
  return [
    {
      element: <StandaloneLayout />,
      children: modulePages(modules, true, bundle, parts),
    },
    {
      element: <Layout />,
      children: [
        { path: '/', element: <HomeRoute root /> },
        { path: HOME_PATH, element: <HomeRoute root={false} /> },
        ...dashboardRoutes(bundle),
        ...(isModuleEnabled(bundle, CATALOG_MODULE)
          ? [
              {
                path: `${CATALOG_ROUTE_PREFIX}/:catalogId`,
                element: <CatalogSearchPage />,
                handle: preloading(CatalogSearchPage.preload),
              },
            ]
          : []),
        ...workflowRoutes(bundle, parts),
        ...modulePages(modules, false, bundle, parts),
        // Each workflow's certificate as an accessible, printable web page.
        ...certificateRoutes(bundle),
        // Outside production only (the server answers 404 there); other people's codes.
        guarded(DEVELOPER_OUTBOX_PATH, DeveloperOutboxPage, [DEVELOPER_OUTBOX_ROLE]),
        // Analysts and administrators: the definitions changed, checked and published.
        guarded(`${STUDIO_PATH}/:tab?`, StudioPage, STUDIO_ROLES),
        // Auditors: who read, changed, exported or published what (docs/audit.md).
        guarded(AUDIT_PATH, AuditPage, AUDIT_ROLES),
        // Finance officers: what was received and refunded (payments/report.ts).
        guarded(PAYMENT_REPORT_PAGE_PATH, PaymentReportPage, [FINANCE_ROLE]),
        // Retention managers: closed documents due to be erased, and the run (docs/retention.md).
        guarded(RETENTION_PATH, RetentionPlanPage, [RETENTION_MANAGE_ROLE]),
        // Public, no sign-in: a status shown with a holder's share code (`shareCodes`).
        ...(bundle.workflows.some(sharesCodes)
          ? [
              {
                path: STATUS_CHECK_PATH,
                element: <StatusCheckPage />,
                handle: preloading(StatusCheckPage.preload),
              },
            ]
          : []),
        { path: '/401', element: <UnauthorizedPage /> },
        { path: '/403', element: <UnauthorizedPage /> },
        { path: '/offline', element: <OfflinePage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

/** What a route fetches once known to be opened: its page's code and what that page needs next. */
interface PreloadHandle {
  preload(): void;
}

function preloading(...preloads: Array<() => void>): PreloadHandle {
  return { preload: () => preloads.forEach((preload) => preload()) };
}

function preloadMatches(matches: ReadonlyArray<{ route: RouteObject }> | null) {
  for (const { route } of matches ?? []) (route.handle as PreloadHandle | undefined)?.preload();
}

/**
 * Starts fetching the page the portal is about to open, while single sign-on is still starting
 * (main.tsx calls it as soon as the definitions arrive): after a sign-in, the page's code is
 * then no longer fetched only once the token exchange is over.
 */
export function preloadRoute(
  bundle: DefinitionBundle,
  path: string,
  parts?: DocumentParts,
  modules?: readonly PortalModule[],
): void {
  preloadMatches(matchRoutes(portalRoutes(bundle, parts, modules), path));
}

/** The portal's router; the page it opens, and each navigation, preloads what its route needs. */
export function createPortalRouter(
  bundle: DefinitionBundle,
  parts?: DocumentParts,
  modules?: readonly PortalModule[],
) {
  // Before the router: an entry the address bar or a plain link made gets its number first, and
  // text typed a moment ago reaches its form (whose unsaved-changes guard then holds the way out).
  const numbering = numberHistoryEntries(window, flushEdits);
  const router = createHashRouter(portalRoutes(bundle, parts, modules));
  numbering.follow(router);
  followScreen(router);
  preloadMatches(router.state.matches);
  // As the location changes, before React renders: the code and the validators start together.
  let last = router.state.location.key;
  router.subscribe((state) => {
    if (state.location.key === last) return;
    last = state.location.key;
    preloadMatches(state.matches);
  });
  return router;
}
