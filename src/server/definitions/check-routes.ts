import { developerPageRoutes } from '../../core/definitions/developer-pages';
import { portalRoutes } from '../../core/definitions/routes';
import { studioRoutes } from '../../core/definitions/studio-roles';
import { auditRoutes } from '../../core/definitions/audit-roles';
import type { CatalogDefinition, ModuleDefinition } from '../../core/definitions/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { reporter, said, workflowFile, type ProblemText, type SaidProblem } from './problems';

/** A route as the router tells routes apart: a parameter is one, whatever its name. */
const patternOf = (path: string) => path.replace(/:[^/]+/g, ':').replace(/\/+$/, '') || '/';

/**
 * Every list and screen has a route of its own. Two on one route (of one workflow, or of two
 * sharing a route prefix), or one on a fixed page's route (home, the dashboard, a catalogue's
 * finder, the studio), would leave all but one unreachable: the router opens the first, so a
 * "New" entry of the menu could open another document type's form.
 */
export function checkRoutes(
  definitions: {
    modules: ModuleDefinition[];
    catalogs: CatalogDefinition[];
    workflows: WorkflowDefinition[];
  },
  problems: SaidProblem[],
): void {
  /** Route pattern -> what already has it, said of a route: a fixed page, or a workflow's. */
  const taken = new Map<string, (route: string) => ProblemText>();
  // The pages no workflow declares: home, the dashboard's, the catalogues' finders, the studio.
  const fixed = [
    ...portalRoutes({ ...definitions, workflows: [] }),
    ...developerPageRoutes(),
    ...studioRoutes(),
    ...auditRoutes(),
  ].map((route) => route.path);
  for (const page of fixed)
    taken.set(patternOf(page), (route) => said('routeOfPortalPage', { route, page }));
  for (const workflow of definitions.workflows) {
    const report = reporter(problems, workflowFile(workflow.id));
    const pages = (['lists', 'screens'] as const).flatMap((kind) =>
      workflow[kind].map((page, index) => ({ path: page.path, pointer: `/${kind}/${index}/path` })),
    );
    // The team view's page too (workload.ts).
    if (workflow.workload) pages.push({ path: workflow.workload.path, pointer: '/workload/path' });
    for (const { path, pointer } of pages) {
      const route = `${workflow.prefix}${path}`;
      const owner = taken.get(patternOf(route));
      const place = `${workflowFile(workflow.id)}#${pointer}`;
      if (owner) report(pointer, owner(route));
      else
        taken.set(patternOf(route), (again) => said('routeOfAnotherPage', { route: again, place }));
    }
  }
}
