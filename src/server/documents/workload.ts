import type { Kysely } from 'kysely';
import { declaredAction, fullRoles, type WorkflowDefinition } from '../../core/documents/workflow';
import type { Database } from '../db/schema';
import type { EffectEnvironment, RoleHolder } from './effect-context';
import { ownerNames } from './store/lookups';
import { countByAssignee } from './store/workload';

/**
 * Assignment by workload (docs/workflows.md, "Assignment and workload"): how many open documents
 * of a type each officer holds, read by one grouped query over the (type, assignee, status)
 * index of migration 0002, never document by document.
 */

/** An officer an action may assign to, with how many open documents of the type they hold. */
export interface Candidate extends RoleHolder {
  openCases: number;
}

/** One row of the team view: an officer (null: nobody, the unassigned) and counts by status. */
export interface WorkloadRow {
  officer: (RoleHolder & { member: boolean }) | null;
  counts: Record<string, number>;
  total: number;
}

export interface Workload {
  action: string;
  statuses: string[];
  rows: WorkloadRow[];
}

/**
 * The statuses a document is "open" in: those the workflow's `workload` declares when it is
 * about this action, else every status of the machine but the final ones (and NEW, where no
 * document is stored).
 */
export function openStatuses(workflow: WorkflowDefinition, action?: string): string[] {
  const declared = workflow.workload;
  if (declared?.statuses && (action === undefined || declared.action === action))
    return [...declared.statuses];
  return Object.entries(workflow.machine.states)
    .filter(
      ([status, state]) =>
        status !== 'NEW' && (state as { type?: unknown } | null)?.type !== 'final',
    )
    .map(([status]) => status);
}

/** The full role codes an action's assignee must hold one of (`assignees`; none: nobody). */
export function assigneeRoles(workflow: WorkflowDefinition, action: string): string[] {
  return fullRoles(workflow, declaredAction(workflow, action)?.assignees ?? []);
}

/** The accounts the action may assign to, fewest open documents first, then by name. */
export async function candidates(
  db: Kysely<Database>,
  environment: EffectEnvironment,
  workflow: WorkflowDefinition,
  action: string,
): Promise<Candidate[]> {
  const roles = assigneeRoles(workflow, action);
  const holders = environment.roleHolders ? await environment.roleHolders.holding(db, roles) : [];
  if (holders.length === 0) return [];
  const open = new Map<string, number>();
  for (const row of await countByAssignee(db, workflow.id, openStatuses(workflow, action)))
    if (row.assignee !== null) open.set(row.assignee, (open.get(row.assignee) ?? 0) + row.count);
  return holders
    .map((holder) => ({ ...holder, openCases: open.get(holder.id) ?? 0 }))
    .sort((a, b) => a.openCases - b.openCases || a.name.localeCompare(b.name));
}

/**
 * The team view: every account the action may assign to (none left out for holding nothing),
 * anyone else still holding open documents (`member: false`: they lost the role), then the
 * unassigned; officers by most open documents first.
 */
export async function teamWorkload(
  db: Kysely<Database>,
  environment: EffectEnvironment,
  workflow: WorkflowDefinition,
  action: string,
): Promise<Workload> {
  const statuses = openStatuses(workflow, action);
  const counted = await countByAssignee(db, workflow.id, statuses);
  const holders = environment.roleHolders
    ? await environment.roleHolders.holding(db, assigneeRoles(workflow, action))
    : [];
  const rows = new Map<string | null, WorkloadRow>();
  for (const holder of holders)
    rows.set(holder.id, { officer: { ...holder, member: true }, counts: {}, total: 0 });
  const others = [
    ...new Set(counted.flatMap((r) => (r.assignee && !rows.has(r.assignee) ? [r.assignee] : []))),
  ];
  const accountType = environment.accounts?.type;
  const names =
    accountType && others.length
      ? await ownerNames(db, accountType, others)
      : new Map<string, string>();
  for (const id of others)
    rows.set(id, {
      officer: { id, login: id, name: names.get(id) ?? id, member: false },
      counts: {},
      total: 0,
    });
  rows.set(null, { officer: null, counts: {}, total: 0 });
  for (const { assignee, status, count } of counted) {
    const row = rows.get(assignee)!;
    row.counts[status] = (row.counts[status] ?? 0) + count;
    row.total += count;
  }
  const officers = [...rows.values()].filter((row) => row.officer !== null);
  officers.sort((a, b) => b.total - a.total || a.officer!.name.localeCompare(b.officer!.name));
  return { action, statuses, rows: [...officers, rows.get(null)!] };
}
