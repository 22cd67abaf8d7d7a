import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * Paying for others (docs/payments.md, "Paying for others"): a workflow's `payerConsent` names
 * statuses of its machine and comes with `payment` (there is nothing else to pay); a `links`
 * with `payerConsent` names at least one type declaring it, or it would accept nobody's.
 */
export function checkPayerConsent({
  workflow,
  workflows,
  report,
}: Pick<WorkflowScope, 'workflow' | 'workflows' | 'report'>): void {
  const consent = workflow.payerConsent;
  if (consent) {
    if (!workflow.payment) report('/payerConsent', said('payerConsentWithoutPayment'));
    consent.statuses.forEach((status, i) => {
      if (!Object.hasOwn(workflow.machine.states, status))
        report(`/payerConsent/statuses/${i}`, said('noStatus', { status }));
    });
  }
  const links = workflow.links;
  if (links?.payerConsent) {
    const declaring = links.types.filter(
      (type) => workflows.find((w) => w.id === type)?.payerConsent,
    );
    if (declaring.length === 0)
      report(
        '/links/payerConsent',
        said('payerConsentNoLinkedType', { types: links.types.join(', ') }),
      );
  }
}
