/** The workflows' timers as the engine reads them (docs/workflows.md, "Timers"). */
import type { TimerWait, WorkflowDefinition } from '../definitions/shapes/workflow';
import { resolvePointer } from '../rules/registry';

/** A state's delayed transition: where a timer leads when due, guarded or not. */
export interface DelayedTransition {
  target: string;
  guard?: unknown;
}

/** A timer the document waits on, as its view shows it. */
export interface PendingTimer {
  name: string;
  /** ISO date-time the timer is due. */
  dueAt: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The timers a status names in `after` (none for a status the machine lacks). */
export function timersOf(
  workflow: Pick<WorkflowDefinition, 'machine'>,
  status: string,
): Record<string, DelayedTransition> {
  const state = Object.hasOwn(workflow.machine.states, status)
    ? (workflow.machine.states[status] as { after?: Record<string, DelayedTransition> })
    : undefined;
  return state?.after ?? {};
}

/**
 * The machine's event for a timer due in a status: XState names a state's delayed event
 * `xstate.after.<delay>.<machine id>.<state>` (its `createAfterEvent`).
 */
export function timerEvent(
  workflow: Pick<WorkflowDefinition, 'machine'>,
  status: string,
  timer: string,
): string {
  return `xstate.after.${timer}.${workflow.machine.id}.${status}`;
}

/** A date (`YYYY-MM-DD`: its start, UTC) or date-time the data holds, else undefined. */
export function dateOf(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T00:00:00Z`)
    : /^\d{4}-\d{2}-\d{2}T/.test(value)
      ? new Date(value)
      : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

/**
 * When a timer entered at `entered` is due: the date its data holds (`until`), else `days`
 * after the entry; undefined when neither (the timer does not run).
 */
export function dueAt(
  wait: TimerWait,
  data: Record<string, unknown>,
  entered: Date,
): Date | undefined {
  if ('until' in wait) {
    const until = dateOf(resolvePointer(data, wait.until));
    if (until) return until;
  }
  return wait.days === undefined ? undefined : new Date(entered.getTime() + wait.days * DAY_MS);
}

/** `days` before `due`. */
export function daysBefore(due: Date, days: number): Date {
  return new Date(due.getTime() - days * DAY_MS);
}

/**
 * When a document entering `status` now would see its first timer fire (a reply's lapse): the
 * latest date what is asked of its holder there may be due by; none when no timer waits there.
 */
export function firstDueIn(
  workflow: Pick<WorkflowDefinition, 'machine' | 'timers'>,
  status: string,
  data: Record<string, unknown>,
  now: Date,
): Date | undefined {
  const dues = Object.keys(timersOf(workflow, status)).flatMap((name) => {
    const timer = workflow.timers?.[name];
    const due = timer && dueAt(timer.wait, data, now);
    return due ? [due] : [];
  });
  return dues.length ? new Date(Math.min(...dues.map((d) => d.getTime()))) : undefined;
}
