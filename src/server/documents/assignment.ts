import type { Kysely } from 'kysely';
import { declaredAction, fullRoles, type WorkflowDefinition } from '../../core/documents/workflow';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { EffectContext, EffectEnvironment, RoleHolder } from './effect-context';
import { ownerNames } from './store/lookups';

/**
 * Assignment: an action whose payload is an assignee (`payload: "assignee"`) hands the document
 * to an account holding one of the roles the action declares (`assignees`), the roles of the
 * step that follows. Who may be chosen is the directory's answer, read in the action's
 * transaction; anything else is refused and nothing changes.
 */

/** The full role codes an action's assignee must hold one of (none: nobody qualifies). */
export function assigneeRoles(workflow: WorkflowDefinition, action: string): string[] {
  return fullRoles(workflow, declaredAction(workflow, action)?.assignees ?? []);
}

/**
 * The `setAssignee` effect: the request names the officer by their account id (what the
 * assignment screen's choice sends) or their sign-in name (what a supervisor knows). An unknown
 * name, or an account that does not hold a role the action declares (the applicant, a validation
 * officer for a verification step), is a 400 on `/assignee`.
 */
export async function setAssignee({
  trx,
  workflow,
  action,
  document,
  request,
  environment,
}: EffectContext): Promise<void> {
  const named = typeof request.assignee === 'string' ? request.assignee.trim() : '';
  if (!named) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/assignee', rule: 'required' },
    ]);
  }
  const account = named.includes('\u0000')
    ? undefined
    : await environment.roleHolders?.find(trx, named);
  if (!account) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/assignee', rule: 'unknownAccount', params: { name: named } },
    ]);
  }
  const roles = assigneeRoles(workflow, action);
  if (!roles.some((role) => account.roles.includes(role))) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/assignee', rule: 'notAssignable', params: { name: account.name } },
    ]);
  }
  document.assignee = account.id;
}

/** The people an action may assign a document to, by name (the assignment screen's choice). */
export async function assignableAccounts(
  db: Kysely<Database>,
  environment: EffectEnvironment,
  workflow: WorkflowDefinition,
  action: string,
): Promise<RoleHolder[]> {
  const roles = assigneeRoles(workflow, action);
  return environment.roleHolders ? environment.roleHolders.holding(db, roles) : [];
}

/** The names of the accounts among `ids` (assignees), by id; ids that are no account are left out. */
export async function accountNames(
  db: Kysely<Database>,
  accountType: string | undefined,
  ids: readonly string[],
): Promise<Map<string, string>> {
  return accountType ? ownerNames(db, accountType, ids) : new Map();
}
