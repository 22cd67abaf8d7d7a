import { declaredAction } from '../../core/documents/workflow';
import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * A workflow's `screening` (docs/workflows.md, "Screening"): the actions it screens are the
 * workflow's; each rule's entry fields are its catalogue's, its `when` fields flags, and each
 * match says either a data pointer or a fixed value. An unknown catalogue and a pointer that is
 * no field of the schema are said by the references' check (their shape names them: `x-names`).
 */
export function checkScreening({ workflow, catalogs, report }: WorkflowScope): void {
  const screening = workflow.screening;
  if (!screening) return;
  screening.on.forEach((action, i) => {
    if (!declaredAction(workflow, action))
      report(`/screening/on/${i}`, said('screeningUnknownAction', { action }));
  });
  screening.rules.forEach((rule, i) => {
    const at = `/screening/rules/${i}`;
    rule.match.forEach((match, j) => {
      if ((match.pointer === undefined) === (match.value === undefined))
        report(`${at}/match/${j}`, said('screeningPointerOrValue', { field: match.field }));
    });
    const catalog = catalogs.find((c) => c.id === rule.catalog);
    if (!catalog) return;
    const fields = (catalog.schema.properties ?? {}) as Record<string, { type?: unknown }>;
    rule.match.forEach((match, j) => {
      if (!Object.hasOwn(fields, match.field))
        report(
          `${at}/match/${j}/field`,
          said('screeningNoCatalogueField', { catalogue: catalog.id, field: match.field }),
        );
    });
    (rule.when ?? []).forEach((field, j) => {
      if (fields[field]?.type !== 'boolean')
        report(`${at}/when/${j}`, said('screeningWhenNotFlag', { catalogue: catalog.id, field }));
    });
  });
}
