import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * A workflow's `validity.periods` names the catalogue whose entries give a grant's length and
 * the two fields holding it: the catalogue must have both, or every grant would be refused for
 * want of a period.
 */
export function checkValidityPeriods({ workflow, catalogs, report }: WorkflowScope): void {
  const periods = workflow.validity?.periods;
  // An unknown catalogue is reported by the references' check.
  const catalog = periods && catalogs.find((c) => c.id === periods.catalog);
  if (!catalog) return;
  const properties = (catalog.schema.properties ?? {}) as Record<string, unknown>;
  for (const key of ['unit', 'count'] as const)
    if (!Object.hasOwn(properties, periods[key]))
      report(
        `/validity/periods/${key}`,
        said('catalogueHasNoField', { catalogue: periods.catalog, field: periods[key] }),
      );
}
