/** The workflow definition's types (from ./shapes, types only) and what the engine computes from it. */
import type { WorkflowAction } from '../definitions/shapes/action';
import type { WorkflowDefinition } from '../definitions/shapes/workflow';

export type * from '../definitions/shapes/action';
export type * from '../definitions/shapes/case-work';
export type * from '../definitions/shapes/certificate';
export type * from '../definitions/shapes/links';
export type * from '../definitions/shapes/list';
export type * from '../definitions/shapes/payment';
export type * from '../definitions/shapes/persons';
export type * from '../definitions/shapes/screen';
export type * from '../definitions/shapes/screening';
export type * from '../definitions/shapes/workflow';

/**
 * The columns every document has; `assigneeName` is read from the accounts, `screeningHit`
 * (screening found a hit: docs/workflows.md, "Screening") from the hits; both only in a list
 * that shows them.
 */
export const DOCUMENT_LIST_COLUMNS = [
  'status',
  'number',
  'owner',
  'ownerName',
  'assignee',
  'assigneeName',
  'screeningHit',
  'year',
  'submittedAt',
  'createdAt',
  'updatedAt',
] as const;

/** The columns read only in a list that shows them (not from the document's row). */
export const LIST_ONLY_COLUMNS: readonly string[] = ['assigneeName', 'screeningHit'];

/** The pseudo-state a document is in before it exists; `store` or `drop` leave it. */
export const NEW_STATE = 'NEW';

export function fullRoles(
  workflow: Pick<WorkflowDefinition, 'rolePrefix'>,
  suffixes: readonly string[],
): string[] {
  return suffixes.map((suffix) => `${workflow.rolePrefix}${suffix}`);
}

/** Every role of a workflow: those of its actions, screens and lists. */
export function workflowRoles(
  workflow: Pick<WorkflowDefinition, 'rolePrefix' | 'actions' | 'screens' | 'lists'> &
    Partial<Pick<WorkflowDefinition, 'payment'>>,
): string[] {
  const refunds = workflow.payment?.refunds;
  const suffixes = new Set<string>([
    ...Object.values(workflow.actions).flatMap((action) => action.roles),
    ...workflow.screens.flatMap((screen) => screen.roles),
    ...workflow.lists.flatMap((list) => list.roles),
    // Those who give money back hold roles of the workflow too (docs/payments.md, "Refunds").
    ...(refunds ? [...refunds.approvers, ...(refunds.requesters ?? [])] : []),
  ]);
  return fullRoles(workflow, [...suffixes]);
}

/** The action a workflow declares under this name (an own property: never `toString`). */
export function declaredAction(
  workflow: Pick<WorkflowDefinition, 'actions'>,
  name: string,
): WorkflowAction | undefined {
  return Object.hasOwn(workflow.actions, name) ? workflow.actions[name] : undefined;
}
