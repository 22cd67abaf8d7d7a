import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { TaskReason, TaskRow } from '../../core/dashboard/types';
import { fullRoles, type WorkflowDefinition } from '../../core/documents/workflow';
import type { SearchResult } from '../../core/search/protocol';
import { holdsAnyRole, type Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import type { CompiledWorkflow } from '../documents/workflows';
import { DELETED, documentFields, libraryRow, pagedSearch } from './rows';

/** An unassigned list the caller serves, as the SQL condition its documents meet. */
interface Queue {
  list: string;
  condition: RawBuilder<SqlBool>;
}

/**
 * My Tasks, in one query:
 * - assigned: documents assigned to the caller, in workflows having a list the caller may open
 *   (an officer who lost the workflow's roles has no more work there), and not in a final
 *   status or deleted (nothing is left to do on them);
 * - queue: unassigned documents waiting in a list declared `assignment: "unassigned"` whose
 *   roles the caller holds, in that list's statuses. A document two such lists hold is shown
 *   once, with the first list of its workflow.
 */
export async function searchTasks(
  db: Kysely<Database>,
  workflows: ReadonlyMap<string, CompiledWorkflow>,
  principal: Principal,
  body: unknown,
  maxItems: number,
): Promise<SearchResult<TaskRow>> {
  const assigned: RawBuilder<SqlBool>[] = [];
  const queues: Queue[] = [];
  for (const { definition } of workflows.values()) {
    const opens = definition.lists.filter((list) =>
      holdsAnyRole(principal, fullRoles(definition, list.roles)),
    );
    if (opens.length === 0) continue;
    const closed = [DELETED, ...finalStatuses(definition)];
    assigned.push(sql<SqlBool>`(type = ${definition.id} and status not in (${sql.join(closed)}))`);
    for (const list of opens.filter((l) => l.assignment === 'unassigned')) {
      const statuses = list.status?.length
        ? sql`status in (${sql.join(list.status)})`
        : sql`status <> ${DELETED}`;
      queues.push({
        list: list.id,
        condition: sql<SqlBool>`(type = ${definition.id} and ${statuses})`,
      });
    }
  }
  const parts: RawBuilder<SqlBool>[] = [];
  if (assigned.length)
    parts.push(sql`(assignee = ${principal.subject} and (${sql.join(assigned, sql` or `)}))`);
  if (queues.length)
    parts.push(
      sql`(assignee is null and (${sql.join(
        queues.map((q) => q.condition),
        sql` or `,
      )}))`,
    );
  const scope = parts.length ? sql<SqlBool>`(${sql.join(parts, sql` or `)})` : sql<SqlBool>`false`;
  // Within the scope a row is either assigned (to the caller) or unassigned (in a queue).
  const reason = sql<TaskReason>`(case when assignee is null then 'queue' else 'assigned' end)`;
  const list = queues.length
    ? sql<string | null>`(case when assignee is null then (case ${sql.join(
        queues.map((q) => sql`when ${q.condition} then ${q.list}`),
        sql` `,
      )} end) end)`
    : sql<string | null>`cast(null as text)`;
  const fields = documentFields([...workflows.values()], {
    assignee: { kind: 'text', sql: sql.ref('assignee') },
    reason: { kind: 'text', sql: reason },
    list: { kind: 'text', sql: list },
  });
  const { rows, page } = await pagedSearch(db, body, fields, scope, maxItems, { reason, list });
  return {
    items: rows.map((row) => ({
      ...libraryRow(row, workflows),
      assignee: row.assignee,
      reason: row.reason === 'queue' ? 'queue' : 'assigned',
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
