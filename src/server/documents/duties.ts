import type { WorkflowAction, WorkflowDefinition } from '../../core/documents/workflow';
import type { Principal } from '../auth/principal';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { perObject } from './memo';
import { actionsTakenBy } from './store/duties';
import type { Queryable } from './store/rows';

/*
 * Separation of duties (four-eyes): an action declaring `notBy` may not be taken by a person
 * who took one of the named actions earlier on the same document, as its history says. The
 * API refuses it (403) and does not offer it to that person; anyone else holding its roles may.
 */

/** The actions one person took on one document, of those some `notBy` of its workflow names. */
export type TakenActions = ReadonlySet<string>;

const NONE: TakenActions = new Set();

/** No action taken: what a reader is told when no offered action could be barred. */
export const NO_ACTIONS_TAKEN: TakenActions = NONE;

/**
 * Whether one of `offered` declares `notBy`: only then can the reader's own history bar it, so
 * only then is the history read (a granted document's reader is offered none such).
 */
export function mayBeBarred(
  workflow: { definition: WorkflowDefinition },
  offered: readonly string[],
): boolean {
  return offered.some((name) => (workflow.definition.actions[name]?.notBy?.length ?? 0) > 0);
}

/** Every action some `notBy` of the workflow names: the history is read only for these. */
export const dutyActions = perObject((workflow: WorkflowDefinition): readonly string[] => [
  ...new Set(Object.values(workflow.actions).flatMap((action) => action.notBy ?? [])),
]);

/** The earlier action that bars this person from `action`, if any (in `notBy`'s order). */
export function barringAction(
  action: Pick<WorkflowAction, 'notBy'>,
  taken: TakenActions,
): string | undefined {
  return action.notBy?.find((earlier) => taken.has(earlier));
}

/** Refuses `action` to a person who took one of its `notBy` actions (403, naming both). */
export function requireDuties(
  name: string,
  action: Pick<WorkflowAction, 'notBy'>,
  taken: TakenActions,
): void {
  const earlier = barringAction(action, taken);
  if (earlier) throw new ApiProblem(403, ERROR_CODES.separationOfDuties, { action: name, earlier });
}

/**
 * The actions `principal` took on each document of the workflow that a `notBy` names: one query
 * for them all, none when the workflow declares no `notBy`.
 */
export async function takenByEach(
  db: Queryable,
  workflow: { definition: WorkflowDefinition },
  ids: readonly string[],
  principal: Pick<Principal, 'subject'>,
): Promise<Map<string, TakenActions>> {
  return actionsTakenBy(db, ids, principal.subject, dutyActions(workflow.definition));
}

/** The actions `principal` took on one document that a `notBy` of its workflow names. */
export async function takenBy(
  db: Queryable,
  workflow: { definition: WorkflowDefinition },
  id: string,
  principal: Pick<Principal, 'subject'>,
): Promise<TakenActions> {
  return (await takenByEach(db, workflow, [id], principal)).get(id) ?? NONE;
}
