import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { checkPayerConsent } from '../../src/server/definitions/check-payer-consent';
import type { ProblemText } from '../../src/server/definitions/problems';

/** `payerConsent` on a paid workflow and on a payer's links (docs/payments.md, "Paying for others"). */
const paid = {
  id: 'paid',
  payment: { currency: 'NZD' },
  machine: { id: 'paid', initial: 'NEW', states: { NEW: {}, SUBMITTED: {} } },
} as unknown as WorkflowDefinition;
const payer = {
  id: 'payer',
  links: { items: '/items', number: 'reference', types: ['paid'], payerConsent: true },
  machine: { id: 'payer', initial: 'NEW', states: { NEW: {} } },
} as unknown as WorkflowDefinition;

function problemsOf(workflow: WorkflowDefinition, workflows: WorkflowDefinition[]) {
  const found: Array<[string, string]> = [];
  checkPayerConsent({
    workflow,
    workflows,
    report: (pointer: string, problem: ProblemText) => found.push([pointer, problem.key]),
  } as unknown as Parameters<typeof checkPayerConsent>[0]);
  return found;
}

describe('the checker of payerConsent', () => {
  it('accepts statuses of the machine on a paid workflow, and links to a type declaring it', () => {
    const declaring = { ...paid, payerConsent: { statuses: ['SUBMITTED'] } };
    expect(problemsOf(declaring, [declaring, payer])).toEqual([]);
    expect(problemsOf(payer, [declaring, payer])).toEqual([]);
  });

  it('refuses an unknown status, a workflow with nothing to pay, and links no type accepts', () => {
    const unpaid = {
      ...paid,
      payment: undefined,
      payerConsent: { statuses: ['SUBMITTED', 'PAID'] },
    } as unknown as WorkflowDefinition;
    expect(problemsOf(unpaid, [unpaid])).toEqual([
      ['/payerConsent', 'payerConsentWithoutPayment'],
      ['/payerConsent/statuses/1', 'noStatus'],
    ]);
    expect(problemsOf(payer, [paid, payer])).toEqual([
      ['/links/payerConsent', 'payerConsentNoLinkedType'],
    ]);
  });
});
