import {
  decisionProblems,
  personsOf,
  writtenDecisions,
} from '../../core/documents/person-decisions';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { isNode } from '../../core/definitions/json';
import { toCents } from '../../core/payments/money';
import { resolvePointer, setAt } from '../../core/rules/registry';
import { invalid } from '../search/compile-search';
import { requestRefundInAction } from '../payments/refund-service';
import type { EffectContext } from './effect-context';

/* A decision per person (`persons`, docs/workflows.md): checked, written, and what it costs. */

/** Whether the action decides each person of the workflow's documents. */
export function decidesPersons(workflow: WorkflowDefinition, action: string): boolean {
  return workflow.persons?.actions.includes(action) === true;
}

/**
 * The decisions the action leaves, checked and written as kept: a 400 naming each person without
 * a decision or refused without a reason, or, with nobody granted, the decisions themselves.
 */
export function checkPersonDecisions(
  workflow: WorkflowDefinition,
  data: Record<string, unknown>,
): void {
  const persons = workflow.persons;
  if (!persons) return;
  const problems = decisionProblems(persons, data);
  if (problems.length) throw invalid(problems);
  setAt(data, persons.decisions, writtenDecisions(persons, data));
}

interface FeeLineData {
  narration?: unknown;
  amount?: unknown;
  status?: unknown;
}

/**
 * A refused person's fee lines (those whose narration is their name, as `payers` wrote it) are
 * waived, and what they came to is refunded by a refund opened in the action's transaction: by
 * card for a card payment (its approved order), else by bank transfer. The main person's fees
 * carry no narration: they are the document's own and stay charged. Nothing paid, nothing opened.
 */
export async function settleRefusedPersons(context: EffectContext): Promise<void> {
  const { workflow, document } = context;
  const persons = workflow.persons;
  const payment = workflow.payment;
  if (!persons || !payment) return;
  const decisions = resolvePointer(document.data, persons.decisions);
  if (!Array.isArray(decisions)) return;
  const refused = new Set(
    personsOf(persons, document.data)
      .filter((p) => p.index > 0 && isNode(decisions[p.index]))
      .filter((p) => (decisions[p.index] as { outcome?: unknown }).outcome === 'REFUSED')
      .map((p) => p.name)
      .filter((name) => name !== ''),
  );
  const fees = resolvePointer(document.data, payment.fees);
  if (!isNode(fees) || !Array.isArray(fees.lines) || refused.size === 0) return;
  let cents = 0;
  for (const line of fees.lines as FeeLineData[]) {
    if (typeof line.narration !== 'string' || !refused.has(line.narration)) continue;
    if (line.status === 'WAIVED') continue;
    cents += toCents(line.amount as string) ?? 0;
    line.status = 'WAIVED';
  }
  const paid = toCents((fees.amountPaid ?? '0') as string) ?? 0;
  if (cents === 0 || paid === 0 || !persons.refund) return;
  // The refund service finds the payment (card or transfer), asks for an approval above the
  // threshold, and refuses (409) while another refund of the document is open: the grant waits
  // rather than lose one.
  await requestRefundInAction(context, {
    amountCents: cents,
    reason: persons.refund.reason,
    note: [...refused].join(', '),
    idempotencyKey: `persons:${document.id}`,
  });
}
