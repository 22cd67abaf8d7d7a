import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { RetentionItem } from '../../core/retention/plan';
import type { AuditEntry, AuditLog } from '../audit/log';
import type { Database } from '../db/schema';
import { clearDocument, lockUncleared, retentionCandidates } from '../documents/store/retention';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { digestOf, makePlan, planCandidates, type RetentionPlan } from './planner';

/** Who the audit names for the daily job. */
export const RETENTION_ACTOR = { actor: 'system:retention', actorName: 'system:retention' };

/** Why a line of the plan was not done after all: the document changed since the plan. */
export type RetentionSkip = 'gone' | 'changed';

export interface RetentionRunResult {
  runId: string;
  at: string;
  digest: string;
  /** The plan's lines done, as the plan listed them. */
  done: RetentionItem[];
  /** The plan's held lines, left alone. */
  held: number;
  skipped: { documentId: string; reason: RetentionSkip }[];
}

/** Who asked for a run, as the audit records it (the daily job, or a person through the API). */
export type RunOrigin = Pick<
  AuditEntry,
  'actor' | 'actorName' | 'route' | 'screen' | 'addressClass'
>;

/**
 * Retention's plan and run (docs/retention.md). A run does its plan: each line not held, each in
 * its own transaction that locks the document, checks the line still stands (not cleared by another
 * run, same status, nothing holding it now) and clears it, its audit line written in the same
 * transaction: a document is cleared and audited, or neither.
 */
export class RetentionService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly workflows: readonly WorkflowDefinition[],
    private readonly audit: AuditLog,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  now(): Date {
    return this.clock();
  }

  /** What would go at `at` (now by default), and what is held. */
  plan(at: Date = this.clock()): Promise<RetentionPlan> {
    return makePlan(this.db, this.workflows, at);
  }

  /** The plan at `at` run, provided it is still the one with `digest` (else 409, nothing done). */
  async runShown(at: Date, digest: string, origin: RunOrigin): Promise<RetentionRunResult> {
    if (at.getTime() > this.clock().getTime())
      throw new ApiProblem(400, ERROR_CODES.retentionNotYet, { at: at.toISOString() });
    const plan = await this.plan(at);
    if (plan.digest !== digest)
      throw new ApiProblem(409, ERROR_CODES.retentionPlanChanged, { count: plan.items.length });
    return this.run(plan, origin);
  }

  /** Does the plan's lines that are not held. */
  async run(plan: RetentionPlan, origin: RunOrigin = RETENTION_ACTOR): Promise<RetentionRunResult> {
    const startedAt = this.clock();
    const { id: runId } = await this.db
      .insertInto('retention_run')
      .values({
        at: plan.at,
        started_at: startedAt.toISOString(),
        actor: origin.actor,
        actor_name: origin.actorName,
        digest: plan.digest,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const done: RetentionItem[] = [];
    const skipped: RetentionRunResult['skipped'] = [];
    const held = plan.items.filter((item) => item.held).length;
    for (const item of plan.items) {
      if (item.held) continue;
      const outcome = await this.clear(item, new Date(plan.at), runId, origin);
      if (outcome === 'done') done.push(item);
      else skipped.push({ documentId: item.documentId, reason: outcome });
    }
    await this.db
      .updateTable('retention_run')
      .set({
        finished_at: this.clock().toISOString(),
        done: done.length,
        held,
        skipped: skipped.length,
      })
      .where('id', '=', runId)
      .execute();
    return { runId, at: plan.at, digest: plan.digest, done, held, skipped };
  }

  private async clear(
    item: RetentionItem,
    at: Date,
    runId: string,
    origin: RunOrigin,
  ): Promise<'done' | RetentionSkip> {
    const workflow = this.workflows.find((w) => w.id === item.type);
    const retention = workflow?.retention;
    if (!workflow || !retention) return 'changed';
    return this.db.transaction().execute(async (trx) => {
      const locked = await lockUncleared(trx, item.type, item.documentId);
      if (!locked) return 'gone';
      // The line again, read under the lock: what the plan said must still be what is done.
      const [candidate] = await retentionCandidates(trx, item.type, [locked.status], [locked.id]);
      const [now] = candidate ? await planCandidates(trx, workflow, [candidate], at) : [];
      if (!now || now.held || digestOf([now]) !== digestOf([item])) return 'changed';
      const clearedAt = this.clock();
      await clearDocument(trx, {
        id: item.documentId,
        personal: retention.clear.personal,
        uploads: item.uploads,
        action: item.action,
        at: clearedAt,
      });
      await this.audit.recordNow(
        [
          {
            ...origin,
            kind: 'retention',
            action: `retention.${item.action}`,
            documentId: item.documentId,
            documentType: item.type,
            ...(item.uploads.length ? { target: item.uploads.join(',') } : {}),
            detail: {
              runId,
              number: item.number,
              status: item.status,
              due: item.due,
              fields: item.fields,
              uploads: item.uploads,
            },
            at: clearedAt,
          },
        ],
        trx,
      );
      return 'done';
    });
  }
}

export interface RetentionWorkerOptions {
  service: RetentionService;
  /** Pause between runs; 0 starts no timer (tests call runOnce). Default one day. */
  intervalMs?: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'error'>;
}

export interface RetentionWorker {
  /** One run: the plan at `now` (default: the clock's) done. */
  runOnce(now?: Date): Promise<RetentionRunResult>;
  /** Stops the daily runs and waits for the one under way. */
  stop(): Promise<void>;
}

/**
 * The daily job: the plan at the clock's instant, run. The first run waits a whole interval, so a
 * process starting never clears anything on its way up; two processes running at once clear each
 * document once (the second finds it locked, then cleared: `gone`).
 */
export function startRetention(options: RetentionWorkerOptions): RetentionWorker {
  const { service, log } = options;
  const intervalMs = options.intervalMs ?? 24 * 60 * 60_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopping = false;

  async function runOnce(now: Date = service.now()): Promise<RetentionRunResult> {
    const result = service.plan(now).then((plan) => service.run(plan));
    running = result.catch(() => undefined);
    return result;
  }

  function schedule() {
    if (stopping || intervalMs <= 0) return;
    timer = setTimeout(() => {
      void runOnce()
        .then((result) => {
          if (result.done.length || result.skipped.length)
            log?.info(
              { done: result.done.length, held: result.held, skipped: result.skipped.length },
              'retention run',
            );
        })
        .catch((error: unknown) => log?.error({ err: error }, 'retention run failed'))
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  }
  schedule();

  return {
    runOnce,
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
