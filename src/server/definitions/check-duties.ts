import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * Actions' `notBy` (separation of duties): each name is an action of the workflow that a person
 * takes, and the action declaring it is one too. A system action is taken by the service
 * itself, so it neither bars anyone nor can be barred: naming one would do nothing, silently.
 * The action may name itself: a second taking (a second approval) is then someone else's.
 */
export function checkDuties({
  workflow,
  report,
}: Pick<WorkflowScope, 'workflow' | 'report'>): void {
  for (const [name, action] of Object.entries(workflow.actions)) {
    if (!action.notBy) continue;
    const pointer = `/actions/${name}/notBy`;
    if (action.system) report(pointer, said('notByOnSystemAction'));
    action.notBy.forEach((earlier, i) => {
      const named = workflow.actions[earlier];
      if (!named) report(`${pointer}/${i}`, said('noAction', { action: earlier }));
      else if (named.system)
        report(`${pointer}/${i}`, said('notBySystemAction', { action: earlier }));
    });
  }
}
