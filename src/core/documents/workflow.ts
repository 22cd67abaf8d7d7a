/**
 * The shape of a workflow definition (workflows/<id>.json), written once in
 * src/core/definitions/shapes/, and what the engine computes from it. Only types come from the
 * shapes, so the browser does not bundle the schemas.
 */
import type { WorkflowAction } from '../definitions/shapes/action';
import type { WorkflowDefinition } from '../definitions/shapes/workflow';

export type * from '../definitions/shapes/action';
export type * from '../definitions/shapes/certificate';
export type * from '../definitions/shapes/links';
export type * from '../definitions/shapes/list';
export type * from '../definitions/shapes/payment';
export type * from '../definitions/shapes/screen';
export type * from '../definitions/shapes/workflow';

/**
 * The columns every document has, which a list names without a pointer; `assigneeName` is the
 * assignee's name, read from the accounts (an "Assigned to" column).
 */
export const DOCUMENT_LIST_COLUMNS = [
  'status',
  'number',
  'owner',
  'ownerName',
  'assignee',
  'assigneeName',
  'year',
  'submittedAt',
  'createdAt',
  'updatedAt',
] as const;

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
  workflow: Pick<WorkflowDefinition, 'rolePrefix' | 'actions' | 'screens' | 'lists'>,
): string[] {
  const suffixes = new Set<string>([
    ...Object.values(workflow.actions).flatMap((action) => action.roles),
    ...workflow.screens.flatMap((screen) => screen.roles),
    ...workflow.lists.flatMap((list) => list.roles),
  ]);
  return fullRoles(workflow, [...suffixes]);
}

/**
 * The action a workflow declares under this name. A name comes from a request, and the actions
 * are a plain object: `constructor` or `toString` would otherwise find what every object has.
 */
export function declaredAction(
  workflow: Pick<WorkflowDefinition, 'actions'>,
  name: string,
): WorkflowAction | undefined {
  return Object.hasOwn(workflow.actions, name) ? workflow.actions[name] : undefined;
}
