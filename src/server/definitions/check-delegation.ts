import { declaredAction } from '../../core/documents/workflow';
import type { WorkflowScope } from './check-references';
import { schemaHasField } from './check-records';
import { said } from './problems';

/**
 * Delegated access (docs/delegation.md): a grant lets a delegate take actions as the holder
 * would, so it names owner actions of the workflow, never the server's own (`system`); grants
 * are told apart by id; what only the holder may change names fields of the document's schema.
 * (Grant labels are text keys: the named references' check finds a missing text.)
 */
export function checkDelegation({
  workflow,
  entity,
  report,
}: Pick<WorkflowScope, 'workflow' | 'entity' | 'report'>): void {
  const delegation = workflow.delegation;
  if (!delegation) return;
  const seen = new Set<string>();
  delegation.grants.forEach((grant, i) => {
    if (seen.has(grant.id))
      report(`/delegation/grants/${i}/id`, said('delegationGrantTwice', { grant: grant.id }));
    seen.add(grant.id);
    grant.actions.forEach((name, j) => {
      const where = `/delegation/grants/${i}/actions/${j}`;
      const action = declaredAction(workflow, name);
      if (!action) report(where, said('noAction', { action: name }));
      else if (action.system) report(where, said('delegationSystemAction', { action: name }));
      else if (!action.owner) report(where, said('delegationNotOwnerAction', { action: name }));
    });
  });
  const schema = entity?.schema;
  delegation.holderOnly.forEach((pointer, i) => {
    if (schema && !schemaHasField(schema, pointer))
      report(`/delegation/holderOnly/${i}`, said('noFieldInDocumentSchema', { field: pointer }));
  });
}
