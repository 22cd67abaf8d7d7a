import type { WorkflowDefinition } from '../documents/workflow';

/** The effect that opens a withdrawal's refund by the payment's declared stages. */
export const REFUND_EFFECT = 'refundOnWithdrawal';

/** Whether taking the action refunds the fees paid by the declared rules (its dialog quotes it). */
export function opensRefund(
  workflow: Pick<WorkflowDefinition, 'payment' | 'actions'>,
  action: string,
): boolean {
  return Boolean(
    workflow.payment?.refunds && workflow.actions[action]?.effects?.includes(REFUND_EFFECT),
  );
}
