import type { WorkflowScope } from './check-references';
import { reportUnknown, said } from './problems';

/**
 * Assignment by workload (docs/workflows.md, "Assignment and workload"): the team view counts
 * for an action that assigns, in statuses of the machine, and a reassignment's reason is asked
 * only of an action that assigns. Otherwise the page would count nobody, or a status no document
 * reaches, and the question would never be asked.
 */
export function checkWorkload({ workflow, report }: WorkflowScope): void {
  for (const [name, action] of Object.entries(workflow.actions))
    if (action.reassignReason && action.payload !== 'assignee')
      report(`/actions/${name}/reassignReason`, said('reassignReasonWithoutPayload'));
  const workload = workflow.workload;
  if (!workload) return;
  if (workflow.actions[workload.action]?.payload !== 'assignee')
    report('/workload/action', said('workloadActionNotAssigning', { action: workload.action }));
  const statuses = new Set(Object.keys(workflow.machine.states));
  reportUnknown(report, workload.statuses, '/workload/statuses', statuses, (status) =>
    said('workloadUnknownStatus', { status }),
  );
}
