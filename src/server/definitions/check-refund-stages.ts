import type { JsonSchema } from '../../core/definitions/json';
import type { WorkflowScope } from './check-references';
import { said } from './problems';
import { REFUND_EFFECT } from '../../core/payments/refunds';

/**
 * A payment's `refunds` (docs/payments.md, "Withdrawal and refund rules"): each stage groups
 * statuses the machine has, no name or status is in two stages (a status would refund two
 * ways), every stage a fee catalogue's `refundableUntil` field allows is a stage of the
 * workflow (else those fees would silently refund nothing), and an action refunding on
 * withdrawal has stages to refund by. The field itself is checked with the other source fields.
 */
export function checkRefundStages({
  workflow,
  catalogs,
  report,
}: Pick<WorkflowScope, 'workflow' | 'catalogs' | 'report'>): void {
  const refunds = workflow.payment?.refunds;
  Object.entries(workflow.actions).forEach(([name, action]) => {
    const at = (action.effects ?? []).indexOf(REFUND_EFFECT);
    if (at >= 0 && !refunds?.stages)
      report(`/actions/${name}/effects/${at}`, said('refundWithoutStages'));
  });
  if (!refunds?.stages) return;
  const states = new Set(Object.keys(workflow.machine.states ?? {}));
  const seen = new Set<string>();
  refunds.stages.forEach((stage, i) => {
    const at = `/payment/refunds/stages/${i}`;
    if (seen.has(stage.id)) report(`${at}/id`, said('refundStageRepeated', { name: stage.id }));
    seen.add(stage.id);
    stage.statuses.forEach((status, j) => {
      if (!states.has(status))
        report(`${at}/statuses/${j}`, said('refundStageNoStatus', { status }));
      else if (seen.has(status))
        report(`${at}/statuses/${j}`, said('refundStageRepeated', { name: status }));
      seen.add(status);
    });
  });
  const stageIds = new Set(refunds.stages.map((stage) => stage.id));
  (workflow.payment?.sources ?? []).forEach((source, i) => {
    const field = source.refundableUntil;
    const catalog = catalogs.find((candidate) => candidate.id === source.catalog);
    if (!field || !catalog) return;
    const properties = (catalog.schema.properties ?? {}) as Record<string, JsonSchema>;
    const allowed = properties[field]?.enum;
    if (!Array.isArray(allowed)) return;
    for (const stage of allowed)
      if (typeof stage === 'string' && !stageIds.has(stage))
        report(
          `/payment/sources/${i}/refundableUntil`,
          said('refundUntilNoStage', { catalogue: catalog.id, stage, field }),
        );
  });
}
