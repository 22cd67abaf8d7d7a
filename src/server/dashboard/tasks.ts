import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { TaskReason, TaskRow } from '../../core/dashboard/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { SearchResult } from '../../core/search/protocol';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import type { CompiledWorkflow } from '../documents/workflows';
import { mayOpenList, ownVisibility } from '../documents/access';
import { listScope } from '../documents/list-where';
import {
  anyOf,
  DELETED,
  searchHeaders,
  visibleTo,
  type SearchLimits,
} from '../documents/store/lists';
import { libraryRow } from '../documents/views';
import { documentFields } from './rows';

/** An unassigned list the caller serves, as the SQL condition its documents meet. */
interface Queue {
  list: string;
  condition: RawBuilder<SqlBool>;
}

/**
 * My Tasks, in one query, each document once (assigned, else queue, else owner):
 * - assigned: to the caller, in workflows with a list they may open, not final nor deleted;
 * - queue: unassigned in an `assignment: "unassigned"` list they may open (its first such list);
 * - owner: their own documents in a status the workflow's `tasks.owner` names.
 */
export async function searchTasks(
  db: Kysely<Database>,
  workflows: ReadonlyMap<string, CompiledWorkflow>,
  principal: Principal,
  body: unknown,
  limits: SearchLimits,
): Promise<SearchResult<TaskRow>> {
  const assigned: RawBuilder<SqlBool>[] = [];
  const queues: Queue[] = [];
  const owned: RawBuilder<SqlBool>[] = [];
  for (const workflow of workflows.values()) {
    const { definition } = workflow;
    const waiting = (definition.tasks?.owner ?? []).map((task) => task.status);
    if (waiting.length)
      owned.push(
        sql<SqlBool>`(${visibleTo(definition.id, ownVisibility(principal))} and status in (${sql.join(waiting)}))`,
      );
    const opens = definition.lists.filter((list) => mayOpenList(workflow, principal, list));
    if (opens.length === 0) continue;
    const closed = [DELETED, ...finalStatuses(definition)];
    assigned.push(sql<SqlBool>`(type = ${definition.id} and status not in (${sql.join(closed)}))`);
    for (const list of opens.filter((l) => l.assignment === 'unassigned')) {
      const condition = listScope(definition.id, list, workflow.entity.schema);
      queues.push({ list: list.id, condition });
    }
  }
  const parts: Array<{ reason: TaskReason; condition: RawBuilder<SqlBool> }> = [];
  if (assigned.length)
    parts.push({
      reason: 'assigned',
      condition: sql`(assignee = ${principal.subject} and ${anyOf(assigned)})`,
    });
  const inQueue = queues.length
    ? sql<SqlBool>`(assignee is null and ${anyOf(queues.map((q) => q.condition))})`
    : undefined;
  if (inQueue) parts.push({ reason: 'queue', condition: inQueue });
  if (owned.length) parts.push({ reason: 'owner', condition: anyOf(owned) });
  const scope = anyOf(parts.map((p) => p.condition));
  // Within the scope the first part a row meets is its reason (see the order above).
  const reason = parts.length
    ? sql<TaskReason>`(case ${sql.join(
        parts.map((p) => sql`when ${p.condition} then ${p.reason}`),
        sql` `,
      )} end)`
    : sql<TaskReason>`cast(null as text)`;
  const list = inQueue
    ? sql<string | null>`(case when ${inQueue} then (case ${sql.join(
        queues.map((q) => sql`when ${q.condition} then ${q.list}`),
        sql` `,
      )} end) end)`
    : sql<string | null>`cast(null as text)`;
  const fields = documentFields([...workflows.values()], {
    assignee: { kind: 'text', sql: sql.ref('assignee') },
    reason: { kind: 'text', sql: reason },
    list: { kind: 'text', sql: list },
  });
  // Counted part by part, each without the rows of those before it, each through its own index.
  const countParts = parts.map((part, i) =>
    i === 0
      ? part.condition
      : sql<SqlBool>`(${part.condition} and not coalesce(${anyOf(parts.slice(0, i).map((p) => p.condition))}, false))`,
  );
  const { rows, page } = await searchHeaders(
    db,
    body,
    fields,
    scope,
    limits,
    { reason, list },
    countParts,
  );
  return {
    items: rows.map((row) => ({
      ...libraryRow(row, workflows),
      assignee: row.assignee,
      reason: row.reason === 'queue' || row.reason === 'owner' ? row.reason : 'assigned',
      list: row.list ?? null,
    })),
    ...page,
  };
}

/** Statuses the machine declares final: no action leaves them. */
function finalStatuses(definition: WorkflowDefinition): string[] {
  return Object.entries(definition.machine.states)
    .filter(([, state]) => (state as { type?: unknown } | null)?.type === 'final')
    .map(([status]) => status);
}
