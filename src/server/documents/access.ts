import {
  declaredAction,
  fullRoles,
  type WorkflowAction,
  type WorkflowList,
} from '../../core/documents/workflow';
import { holdsAnyRole, type Principal } from '../auth/principal';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { GuardInput } from './guards';
import { nextStatus } from './machine';
import { actionPlansOf, type PlannedWorkflow } from './action-plans';
import type { DocumentRow, Queryable } from './store/rows';
import { visibleTo, type Visibility } from './store/lists';
import { namedByDocumentOf } from './store/media';
import { UUID } from '../db/ids';
import { barringAction, type TakenActions } from './duties';

export type { Visibility } from './store/lists';
import type { CompiledWorkflow } from './workflows';

/* The access policy: who sees which document and may take which action; the store applies it. */

/**
 * Who sees a workflow's documents: see-all roles every one, anyone else their own; an inbox's
 * messages also their writer (the assignee), whatever the roles.
 */
export function visibility(workflow: CompiledWorkflow, principal: Principal): Visibility {
  if (workflow.definition.inbox) return { kind: 'own', owner: principal.subject, assigned: true };
  if (holdsAnyRole(principal, workflow.seeAllRoles)) return { kind: 'all' };
  return { kind: 'own', owner: principal.subject };
}

/** Whether the caller may see this document (else it is a 404: ids reveal nothing). */
export function maySee(
  workflow: CompiledWorkflow,
  principal: Principal,
  document: { owner: string; assignee: string | null },
): boolean {
  const seen = visibility(workflow, principal);
  if (seen.kind === 'all') return true;
  return (
    document.owner === seen.owner || (seen.assigned === true && document.assignee === seen.owner)
  );
}

/** The caller's own documents of the workflow (My Library, owners' tasks). */
export function ownVisibility(principal: Principal): Visibility {
  return { kind: 'own', owner: principal.subject };
}

/** The caller may open this list (its roles), or the finder without one (any role); else 403. */
export function requireListAccess(
  workflow: CompiledWorkflow,
  principal: Principal,
  list: WorkflowList | undefined,
): void {
  const roles = list ? fullRoles(workflow.definition, list.roles) : workflow.anyRole;
  if (!holdsAnyRole(principal, roles)) throw new ApiProblem(403, ERROR_CODES.forbidden);
}

/** The caller may open this list of the workflow (its roles). */
export function mayOpenList(
  workflow: CompiledWorkflow,
  principal: Principal,
  list: WorkflowList,
): boolean {
  return holdsAnyRole(principal, fullRoles(workflow.definition, list.roles));
}

type GuardedRow = Pick<
  DocumentRow,
  'status' | 'previous_status' | 'owner' | 'assignee' | 'number' | 'data'
>;

/** What the machine's guards see: the document as it stands (or as the action leaves it). */
export function guardInput(row: GuardedRow, principal: Principal): GuardInput {
  return {
    document: {
      status: row.status,
      previousStatus: row.previous_status,
      owner: row.owner,
      assignee: row.assignee,
      number: row.number,
      data: row.data,
    },
    principal,
  };
}

/** Whether the machine lets `principal` take `action` on the document as it stands. */
export function machineAllows(
  workflow: Pick<PlannedWorkflow, 'machine'>,
  row: GuardedRow,
  action: string,
  principal: Principal,
): boolean {
  const input = guardInput(row, principal);
  return nextStatus(workflow.machine, row.status, { type: action, input }) !== undefined;
}

/** The action the workflow names, if the caller holds one of its roles (else 404 / 403). */
export function requireAction(
  workflow: CompiledWorkflow,
  action: string,
  principal: Principal,
): WorkflowAction {
  const definition = declaredAction(workflow.definition, action);
  if (!definition) throw new ApiProblem(404, ERROR_CODES.notFound);
  if (!holdsAnyRole(principal, workflow.rolesOf(definition)))
    throw new ApiProblem(403, ERROR_CODES.forbidden);
  return definition;
}

/**
 * Actions the caller may take now: planned per status, roles and owner; guards per document;
 * without those the caller's earlier actions bar (`taken`: separation of duties, duties.ts).
 */
export function allowedActions(
  workflow: PlannedWorkflow,
  row: GuardedRow,
  principal: Principal,
  taken: TakenActions = NO_ACTIONS,
): string[] {
  const plan = actionPlansOf(workflow).of(row.status, principal, row.owner === principal.subject);
  const actions = workflow.definition.actions;
  return plan
    .filter((action) => !action.guarded || machineAllows(workflow, row, action.name, principal))
    .filter((action) => !taken.size || !barringAction(actions[action.name] ?? {}, taken))
    .map((action) => action.name);
}

const NO_ACTIONS: TakenActions = new Set();

/** `allowedActions` by asking the machine about every action: what tests compare it with. */
export function allowedActionsByMachine(
  workflow: PlannedWorkflow,
  row: GuardedRow,
  principal: Principal,
): string[] {
  return Object.entries(workflow.definition.actions)
    .filter(([, action]) => !action.system && holdsAnyRole(principal, workflow.rolesOf(action)))
    .filter(([, action]) => !action.owner || row.owner === principal.subject)
    .filter(([name]) => machineAllows(workflow, row, name, principal))
    .map(([name]) => name);
}

/** Whether the caller may read an upload through a document naming it (see-all, or a message). */
export async function readableThroughDocument(
  db: Queryable,
  workflows: Iterable<CompiledWorkflow>,
  principal: Principal,
  mediaId: string,
): Promise<boolean> {
  if (!UUID.test(mediaId)) return false;
  const seen = [...workflows].map((w) => ({
    type: w.definition.id,
    seen: visibility(w, principal),
  }));
  const types = seen.filter((w) => w.seen.kind === 'all').map((w) => w.type);
  const messages = seen
    .filter((w) => w.seen.kind === 'own' && w.seen.assigned)
    .map((w) => visibleTo(w.type, w.seen));
  return namedByDocumentOf(db, mediaId, types, messages);
}
