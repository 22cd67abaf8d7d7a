/**
 * The retention plan (docs/retention.md): which closed documents are due to be erased or
 * anonymised at an instant, what goes of each, and which are held and why. Pure: the server reads
 * the documents and what holds them, this decides; the dry run and the run share it, so the run
 * does what the dry run showed.
 */
import type {
  RetentionAction,
  RetentionPeriod,
  RetentionRule,
  WorkflowRetention,
} from '../definitions/shapes/retention';

/** Who may see the plan and run it. */
export const RETENTION_MANAGE_ROLE = 'retention-manage';
/** The plan's screen. */
export const RETENTION_PATH = '/retention';

/** What keeps a due document: a hold flag, an open case, a refund not settled. */
export const RETENTION_HOLDS = [
  'holdFlag',
  'openRequest',
  'pendingTimer',
  'pendingRefund',
] as const;
export type RetentionHold = (typeof RETENTION_HOLDS)[number];

/** A closed document as the planner needs it. */
export interface RetentionCandidate {
  id: string;
  type: string;
  number: string | null;
  status: string;
  data: Record<string, unknown>;
  flags: readonly string[];
  /** When it entered its status (its history); the last change when the history has none. */
  enteredAt: Date;
  /** The uploads it names (its data and its answered requests). */
  uploads: readonly string[];
}

/** One line of the plan. */
export interface RetentionItem {
  documentId: string;
  type: string;
  number: string | null;
  status: string;
  /** When its period ended (ISO). */
  due: string;
  action: RetentionAction;
  /** The declared personal fields that hold a value now, cleared in the data and every version. */
  fields: string[];
  /** The uploads deleted (an upload another document names stays). */
  uploads: string[];
  /** Why it is kept for now; absent when it goes. */
  held?: RetentionHold[];
}

/** `date` moved on by the period, in UTC calendar terms (31 January + 1 month: 28 or 29 February). */
export function addPeriod(date: Date, period: RetentionPeriod): Date {
  const { years = 0, months = 0, days = 0 } = period;
  const monthIndex = date.getUTCFullYear() * 12 + date.getUTCMonth() + years * 12 + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const moved = new Date(date.getTime());
  moved.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay));
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved;
}

/** The value at a JSON pointer of plain names. */
export function valueAt(data: unknown, pointer: string): unknown {
  let value: unknown = data;
  for (const name of pointer.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

const DATE = /^\d{4}-\d{2}-\d{2}(T.*)?$/;

/** Where the rule's period starts for the document: its data's date, else its entry into the status. */
export function startOf(rule: RetentionRule, candidate: RetentionCandidate): Date {
  if (rule.from === 'closed') return candidate.enteredAt;
  const value = valueAt(candidate.data, rule.from.date);
  if (typeof value === 'string' && DATE.test(value)) {
    const date = new Date(value.length === 10 ? `${value}T00:00:00.000Z` : value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return candidate.enteredAt;
}

const filled = (value: unknown) =>
  value !== undefined &&
  value !== null &&
  value !== '' &&
  !(Array.isArray(value) && value.length === 0);

/**
 * The document's line at `at`: undefined while its status has no rule or its period runs;
 * else what goes, held (with every reason) when something keeps it.
 */
export function planDocument(
  retention: WorkflowRetention,
  candidate: RetentionCandidate,
  at: Date,
  holds: readonly RetentionHold[],
): RetentionItem | undefined {
  const rule = retention.rules.find((r) => r.statuses.includes(candidate.status));
  if (!rule) return undefined;
  const due = addPeriod(startOf(rule, candidate), rule.keep);
  if (due.getTime() > at.getTime()) return undefined;
  const action = rule.action ?? 'erase';
  const flagged = (retention.holdFlags ?? []).some((flag) => candidate.flags.includes(flag));
  const held = [...new Set<RetentionHold>([...(flagged ? ['holdFlag' as const] : []), ...holds])];
  return {
    documentId: candidate.id,
    type: candidate.type,
    number: candidate.number,
    status: candidate.status,
    due: due.toISOString(),
    action,
    fields: retention.clear.personal.filter((pointer) => filled(valueAt(candidate.data, pointer))),
    uploads: action === 'erase' && retention.clear.uploads ? [...candidate.uploads].sort() : [],
    ...(held.length ? { held: RETENTION_HOLDS.filter((h) => held.includes(h)) } : {}),
  };
}

/** The plan's lines in a stable order: the longest due first, then by type and id. */
export function sortPlan(items: RetentionItem[]): RetentionItem[] {
  return items.sort(
    (a, b) =>
      a.due.localeCompare(b.due) ||
      a.type.localeCompare(b.type) ||
      a.documentId.localeCompare(b.documentId),
  );
}
