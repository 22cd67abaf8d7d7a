import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * A payment's `refunds` (docs/payments.md, "Refunds"): those who approve or open refunds are
 * officers. A role the workflow gives to an owner-only action (the applicant's `submit`, `pay`)
 * would let a holder give their own money back, or approve their own refund: refused.
 */
export function checkRefunds({ workflow, report }: Pick<WorkflowScope, 'workflow' | 'report'>) {
  const refunds = workflow.payment?.refunds;
  if (!refunds) return;
  const holders = new Set(
    Object.values(workflow.actions)
      .filter((action) => action.owner)
      .flatMap((action) => action.roles),
  );
  for (const key of ['approvers', 'requesters'] as const) {
    (refunds[key] ?? []).forEach((role, i) => {
      if (holders.has(role))
        report(`/payment/refunds/${key}/${i}`, said('refundRoleOfHolder', { role }));
    });
  }
}
