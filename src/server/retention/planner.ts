import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import {
  planDocument,
  sortPlan,
  type RetentionCandidate,
  type RetentionHold,
  type RetentionItem,
} from '../../core/retention/plan';
import type { Database } from '../db/schema';
import { retentionCandidates, withOpenRequests } from '../documents/store/retention';
import type { Queryable } from '../documents/store/rows';
import { timerDb } from '../documents/timer-rows';

/** Refunds not settled either way: the money is still moving, so the document stays. */
export const PENDING_REFUND_STATUSES = ['PENDING_APPROVAL', 'REQUESTED'] as const;

export interface RetentionPlan {
  /** The instant it was made for (ISO). */
  at: string;
  /** The items' fingerprint: a run given it does this plan or nothing (409). */
  digest: string;
  items: RetentionItem[];
}

/** What keeps each of `ids` for now, besides a hold flag: an open case, a refund under way. */
export async function holdsOf(
  db: Queryable,
  ids: readonly string[],
): Promise<Map<string, RetentionHold[]>> {
  const holds = new Map<string, RetentionHold[]>();
  if (ids.length === 0) return holds;
  const add = (id: string, hold: RetentionHold) => holds.set(id, [...(holds.get(id) ?? []), hold]);
  for (const id of await withOpenRequests(db, ids)) add(id, 'openRequest');
  const timers = await timerDb(db as Kysely<Database>)
    .selectFrom('document_timer')
    .select('document_id')
    .distinct()
    .where('document_id', 'in', [...ids])
    .execute();
  for (const row of timers) add(row.document_id, 'pendingTimer');
  const refunds = await db
    .selectFrom('payment_refund')
    .select('document_id')
    .distinct()
    .where('document_id', 'in', [...ids])
    .where('status', 'in', [...PENDING_REFUND_STATUSES])
    .execute();
  for (const row of refunds) add(row.document_id, 'pendingRefund');
  return holds;
}

/** The plan's lines for these candidates of one workflow at `at`. */
export async function planCandidates(
  db: Queryable,
  workflow: WorkflowDefinition,
  candidates: readonly RetentionCandidate[],
  at: Date,
): Promise<RetentionItem[]> {
  const retention = workflow.retention;
  if (!retention) return [];
  const due = candidates.filter((c) => planDocument(retention, c, at, []));
  const holds = await holdsOf(
    db,
    due.map((c) => c.id),
  );
  return due.flatMap((c) => planDocument(retention, c, at, holds.get(c.id) ?? []) ?? []);
}

/** Every workflow's documents due at `at`, held ones with their reasons. */
export async function makePlan(
  db: Kysely<Database>,
  workflows: readonly WorkflowDefinition[],
  at: Date,
): Promise<RetentionPlan> {
  const items: RetentionItem[] = [];
  for (const workflow of workflows) {
    if (!workflow.retention) continue;
    const statuses = [...new Set(workflow.retention.rules.flatMap((rule) => rule.statuses))];
    const candidates = await retentionCandidates(db, workflow.id, statuses);
    items.push(...(await planCandidates(db, workflow, candidates, at)));
  }
  const sorted = sortPlan(items);
  return { at: at.toISOString(), digest: digestOf(sorted), items: sorted };
}

/** A fingerprint of the plan's lines: who goes, how, and what of them. */
export function digestOf(items: readonly RetentionItem[]): string {
  const lines = items.map((item) =>
    JSON.stringify([
      item.documentId,
      item.status,
      item.action,
      item.fields,
      item.uploads,
      item.held ?? [],
    ]),
  );
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 32);
}
