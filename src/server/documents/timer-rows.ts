import type { Generated, Kysely, Transaction } from 'kysely';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { daysBefore, dueAt, timersOf, type PendingTimer } from '../../core/documents/timers';
import type { Database } from '../db/schema';
import { iso } from './views';

/** A row of `document_timer` (migration 0023): a timer, or one of its reminders, of a document. */
export interface DocumentTimerTable {
  id: Generated<string>;
  document_id: string;
  type: string;
  timer: string;
  /** The status it belongs to and the version that entered it. */
  status: string;
  entered_version: number;
  due_at: Date;
  kind: 'fire' | 'reminder';
  /** A reminder's index in its timer's `reminders`; -1 for the timer itself. */
  reminder: Generated<number>;
  /** When a worker last failed at it (tried again later). */
  claimed_at: Date | null;
  attempts: Generated<number>;
  last_error: string | null;
}

// A type alias, not an interface: withTables wants a type with an implicit index signature.
export type TimerTables = { document_timer: DocumentTimerTable };

type Queryable = Kysely<Database> | Transaction<Database>;

export function timerDb(db: Transaction<Database>): Transaction<Database & TimerTables>;
export function timerDb(db: Kysely<Database>): Kysely<Database & TimerTables>;
export function timerDb(db: Kysely<Database>): Kysely<Database & TimerTables> {
  return db.withTables<TimerTables>();
}

/** What the scheduling reads of the document an action wrote. */
export interface TimedDocument {
  id: string;
  type: string;
  status: string;
  version: number;
  data: Record<string, unknown>;
}

/**
 * Keeps a document's timers in step with the action just written, in its transaction: a status
 * entered gets the timers its state names (and their reminders still ahead), a status left loses
 * its own; an action that stays moves the timers waiting on a date of the data with it.
 */
export async function scheduleTimers(
  trx: Transaction<Database>,
  workflow: WorkflowDefinition,
  fromStatus: string,
  document: TimedDocument,
  now: Date,
): Promise<void> {
  const db = timerDb(trx);
  const after = timersOf(workflow, document.status);
  const declared = workflow.timers ?? {};
  if (fromStatus === document.status) {
    if (Object.keys(after).length > 0) await followDates(trx, workflow, document);
    return;
  }
  // Rows are written only in a status naming timers: leaving any other has none to delete.
  if (Object.keys(timersOf(workflow, fromStatus)).length > 0)
    await db.deleteFrom('document_timer').where('document_id', '=', document.id).execute();
  const rows = Object.keys(after).flatMap((name) => {
    const timer = declared[name];
    const due = timer && dueAt(timer.wait, document.data, now);
    if (!timer || !due) return [];
    const base = {
      document_id: document.id,
      type: document.type,
      timer: name,
      status: document.status,
      entered_version: document.version,
      claimed_at: null,
      last_error: null,
    };
    return [
      { ...base, due_at: due, kind: 'fire' as const, reminder: -1 },
      ...(timer.reminders ?? []).flatMap((reminder, index) => {
        const at = daysBefore(due, reminder.before.days);
        // A reminder already past when the status is entered would only say what is shown.
        return at > now
          ? [{ ...base, due_at: at, kind: 'reminder' as const, reminder: index }]
          : [];
      }),
    ];
  });
  if (rows.length > 0) await db.insertInto('document_timer').values(rows).execute();
}

/** The waiting timers due on a date of the data, moved to the date the data now holds. */
async function followDates(
  trx: Transaction<Database>,
  workflow: WorkflowDefinition,
  document: TimedDocument,
): Promise<void> {
  const db = timerDb(trx);
  const rows = await db
    .selectFrom('document_timer')
    .selectAll()
    .where('document_id', '=', document.id)
    .where('status', '=', document.status)
    .execute();
  for (const row of rows) {
    const timer = workflow.timers?.[row.timer];
    if (!timer || !('until' in timer.wait)) continue;
    // The entry's time is not kept; a `days` fallback keeps the due date it was given.
    const due = dueAt({ until: timer.wait.until }, document.data, row.due_at);
    if (!due) continue;
    const days = row.kind === 'reminder' ? timer.reminders?.[row.reminder]?.before.days : 0;
    if (days === undefined) continue;
    const at = daysBefore(due, days);
    if (at.getTime() !== new Date(row.due_at).getTime())
      await db.updateTable('document_timer').set({ due_at: at }).where('id', '=', row.id).execute();
  }
}

/** The timers a document in this status waits on, soonest first (none without a query). */
export async function pendingTimers(
  db: Queryable,
  workflow: WorkflowDefinition,
  document: { id: string; status: string },
): Promise<PendingTimer[]> {
  if (Object.keys(timersOf(workflow, document.status)).length === 0) return [];
  const rows = await timerDb(db as Kysely<Database>)
    .selectFrom('document_timer')
    .select(['timer', 'due_at'])
    .where('document_id', '=', document.id)
    .where('status', '=', document.status)
    .where('kind', '=', 'fire')
    .orderBy('due_at')
    .execute();
  return rows.map((row) => ({ name: row.timer, dueAt: iso(row.due_at) }));
}
