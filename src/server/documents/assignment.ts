import type { Kysely } from 'kysely';
import { declaredAction, type WorkflowDefinition } from '../../core/documents/workflow';
import type { Database } from '../db/schema';
import { invalid } from '../search/compile-search';
import type { EffectContext, EffectEnvironment } from './effect-context';
import { assigneeRoles, candidates, type Candidate } from './workload';

/**
 * `setAssignee`: the officer by account id or sign-in name, with an `assignees` role, else 400.
 * Handing a document someone holds to someone else under `reassignReason` needs notes saying why
 * (kept on the history's line, beside from whom and to whom), else 400 `reassignReason`.
 */
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
  const before = document.assignee;
  const reason = typeof request.notes === 'string' ? request.notes.trim() : '';
  if (
    declaredAction(workflow, action)?.reassignReason &&
    before &&
    before !== account.id &&
    !reason
  ) {
    const holder = await environment.roleHolders?.find(trx, before);
    throw invalid([
      { path: '/notes', rule: 'reassignReason', params: { name: holder?.name ?? before } },
    ]);
  }
  document.assignee = account.id;
}

/** The people an action may assign a document to, fewest open documents first (workload.ts). */
export function assignableAccounts(
  db: Kysely<Database>,
  environment: EffectEnvironment,
  workflow: WorkflowDefinition,
  action: string,
): Promise<Candidate[]> {
  return candidates(db, environment, workflow, action);
}
