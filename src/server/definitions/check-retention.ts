import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * Retention (docs/retention.md): each rule names statuses of the machine, each status in one rule
 * only (two periods for one status would leave which one applies to the order of the file), with a
 * period longer than nothing; a hold flag is one of the workflow's `flags`, which officers set. The
 * pointers (the date a period starts from, the personal fields cleared) are the references'
 * check's to report (references.ts).
 */
export function checkRetention({ workflow, report }: Pick<WorkflowScope, 'workflow' | 'report'>) {
  const retention = workflow.retention;
  if (!retention) return;
  const at = '/retention';
  const ruleOf = new Map<string, number>();
  retention.rules.forEach((rule, i) => {
    rule.statuses.forEach((status, j) => {
      if (!Object.hasOwn(workflow.machine.states, status))
        report(`${at}/rules/${i}/statuses/${j}`, said('noStatus', { status }));
      const earlier = ruleOf.get(status);
      if (earlier !== undefined)
        report(
          `${at}/rules/${i}/statuses/${j}`,
          said('retentionStatusTwice', { status, rule: earlier + 1 }),
        );
      else ruleOf.set(status, i);
    });
    const { years = 0, months = 0, days = 0 } = rule.keep;
    if (years + months + days === 0) report(`${at}/rules/${i}/keep`, said('retentionNoPeriod'));
  });
  retention.holdFlags?.forEach((flag, i) => {
    if (!workflow.flags || !Object.hasOwn(workflow.flags, flag))
      report(`${at}/holdFlags/${i}`, said('retentionHoldFlagUnknown', { flag }));
  });
}
