import { catalogFieldsOf } from '../../core/definitions/catalog-fields';
import type { EntityDefinition, WorkflowDefinition } from '../../core/definitions/types';

/**
 * Every catalogue a form draws a field from (its catalogue selects), and those an officer
 * chooses requested items from (a workflow's `requests.catalogs`): any signed-in user may list
 * their options.
 */
export function formCatalogs(
  entities: readonly EntityDefinition[],
  workflows: readonly Pick<WorkflowDefinition, 'requests'>[] = [],
): Set<string> {
  return new Set([
    ...entities.flatMap((entity) => catalogFieldsOf(entity).map((f) => f.catalog)),
    ...workflows.flatMap((w) => (w.requests?.catalogs ?? []).map((c) => c.catalog)),
  ]);
}
