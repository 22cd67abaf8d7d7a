import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * Actions' `reconcile` (a payment received by transfer): a person takes the action (an officer
 * records what the bank received; a system action has nobody to), the amounts it records are
 * in sections it may edit (else the received amount could never be given), and the `short`
 * action is one the machine takes in every status the reconciling action is taken in: a
 * shortfall would otherwise be refused instead of asking the payer for the difference.
 */
export function checkReconcile({
  workflow,
  report,
}: Pick<WorkflowScope, 'workflow' | 'report'>): void {
  for (const [name, action] of Object.entries(workflow.actions)) {
    const reconcile = action.reconcile;
    if (!reconcile) continue;
    const pointer = `/actions/${name}/reconcile`;
    if (action.system) report(pointer, said('reconcileOnSystemAction'));
    const editable = action.editable;
    for (const field of ['received', 'reference'] as const) {
      const section = reconcile[field].split('/')[1] ?? '';
      if (editable !== 'all' && !editable?.includes(section))
        report(
          `${pointer}/${field}`,
          said('reconcileNotEditable', { pointer: reconcile[field], action: name }),
        );
    }
    const short = workflow.actions[reconcile.short];
    if (!short) {
      report(`${pointer}/short`, said('noAction', { action: reconcile.short }));
      continue;
    }
    if (reconcile.short === name) report(`${pointer}/short`, said('reconcileShortItself'));
    for (const [status, state] of Object.entries(workflow.machine.states)) {
      const on = (state as { on?: Record<string, unknown> }).on ?? {};
      if (name in on && !(reconcile.short in on))
        report(
          `${pointer}/short`,
          said('reconcileShortNotTaken', { action: reconcile.short, status }),
        );
    }
  }
}
