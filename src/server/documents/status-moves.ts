import { sql, type Kysely, type Transaction } from 'kysely';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { Database } from '../db/schema';
import { problemOf, said, workflowFile, type SaidProblem } from '../definitions/problems';
import { countOutside, moveStatus } from './store/status-moves';

/** The history's action for a document moved by its workflow's `statusMoves`. */
export const STATUS_MOVED = 'statusMoved';
const ACTOR = 'system';

/** Documents of a type in a status its machine does not have, counted. */
export interface StrandedStatus {
  type: string;
  status: string;
  count: number;
}

/** Moves documents in a removed status as `statusMoves` maps it; an unmapped one is a problem. */
export async function reconcileStatuses(
  db: Kysely<Database>,
  workflows: readonly WorkflowDefinition[],
): Promise<{ moved: StrandedStatus[]; problems: SaidProblem[] }> {
  return db.transaction().execute((trx) => moveStrandedDocuments(trx, workflows));
}

/** `reconcileStatuses` in the caller's transaction (a publish's, so both happen or neither). */
export async function moveStrandedDocuments(
  trx: Transaction<Database>,
  workflows: readonly WorkflowDefinition[],
): Promise<{ moved: StrandedStatus[]; problems: SaidProblem[] }> {
  await sql`select pg_advisory_xact_lock(hashtext('status-moves'))`.execute(trx);
  const { moves, problems } = await strandedStatuses(trx, workflows);
  if (problems.length > 0) return { moved: [], problems };
  for (const move of moves)
    await moveStatus(trx, move.type, move.status, move.to, { action: STATUS_MOVED, actor: ACTOR });
  return { moved: moves, problems };
}

/**
 * The documents in a status their machine no longer has, each group with the status
 * `statusMoves` maps it to, or a problem when none does. Reads only: a check asks it too.
 */
export async function strandedStatuses(
  db: Kysely<Database>,
  workflows: readonly WorkflowDefinition[],
): Promise<{ moves: Array<StrandedStatus & { to: string }>; problems: SaidProblem[] }> {
  const problems: SaidProblem[] = [];
  const moves: Array<StrandedStatus & { to: string }> = [];
  for (const workflow of workflows) {
    const counts = await countOutside(db, workflow.id, Object.keys(workflow.machine.states));
    for (const { status, count } of counts) {
      const to = workflow.statusMoves?.[status];
      if (to) moves.push({ type: workflow.id, status, count, to });
      else
        problems.push(
          problemOf(
            workflowFile(workflow.id),
            '/machine/states',
            said('documentsInRemovedStatus', { count, status }),
          ),
        );
    }
  }
  return { moves, problems };
}
