import type { Kysely } from 'kysely';
import { declaredAction, fullRoles, type WorkflowDefinition } from '../../core/documents/workflow';
import type { Database } from '../db/schema';
import { invalid } from '../search/compile-search';
import type { EffectContext, EffectEnvironment, RoleHolder } from './effect-context';

/** The full role codes an action's assignee must hold one of (`assignees`; none: nobody). */
function assigneeRoles(workflow: WorkflowDefinition, action: string): string[] {
  return fullRoles(workflow, declaredAction(workflow, action)?.assignees ?? []);
}

/** `setAssignee`: the officer by account id or sign-in name, with an `assignees` role, else 400. */
export async function setAssignee(context: EffectContext): Promise<void> {
  const { trx, workflow, action, document, request, environment } = context;
  const named = typeof request.assignee === 'string' ? request.assignee.trim() : '';
  if (!named) throw invalid([{ path: '/assignee', rule: 'required' }]);
  const account = named.includes('\u0000')
    ? undefined
    : await environment.roleHolders?.find(trx, named);
  if (!account)
    throw invalid([{ path: '/assignee', rule: 'unknownAccount', params: { name: named } }]);
  const roles = assigneeRoles(workflow, action);
  if (!roles.some((role) => account.roles.includes(role)))
    throw invalid([{ path: '/assignee', rule: 'notAssignable', params: { name: account.name } }]);
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
