import type { Kysely } from 'kysely';
import type { WorkflowStatistics } from '../../core/dashboard/types';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import type { CompiledWorkflow } from '../documents/workflows';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { visibility } from '../documents/access';
import { countByStatusAndMonth, visibleTo } from '../documents/store/lists';

/** How many calendar months the statistics go back, the current one included. */
export const STATISTICS_MONTHS = 6;

/** Counts of the finder's documents by creation (UTC): this year by status, six months by month. */
export async function workflowStatistics(
  db: Kysely<Database>,
  workflow: CompiledWorkflow | undefined,
  principal: Principal,
  now: Date = new Date(),
): Promise<WorkflowStatistics> {
  // An unknown workflow and one without statistics are the same 404: ids reveal nothing.
  if (!workflow?.definition.statistics) throw new ApiProblem(404, ERROR_CODES.notFound);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const firstMonth = new Date(Date.UTC(year, month - (STATISTICS_MONTHS - 1), 1));
  const nextMonth = new Date(Date.UTC(year, month + 1, 1));
  const { statuses, months } = await countByStatusAndMonth(
    db,
    visibleTo(workflow.definition.id, visibility(workflow, principal)),
    { from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year + 1, 0, 1)) },
    { from: firstMonth, to: nextMonth },
  );
  const perMonth = new Map(months.map((m) => [m.month, Number(m.count)]));
  return {
    year,
    // Sorted here by code point: the database's collation may differ between installations.
    byStatus: statuses
      .map((s) => ({ status: s.status, count: Number(s.count) }))
      .sort((a, b) => (a.status < b.status ? -1 : a.status > b.status ? 1 : 0)),
    months: Array.from({ length: STATISTICS_MONTHS }, (_, i) => {
      const start = new Date(Date.UTC(year, month - (STATISTICS_MONTHS - 1) + i, 1));
      const key = `${start.getUTCFullYear()}-${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
      return { month: key, count: perMonth.get(key) ?? 0 };
    }),
  };
}
