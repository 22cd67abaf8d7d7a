import type { Kysely, Transaction } from 'kysely';
import { daysBefore, timersOf } from '../../core/documents/timers';
import type { WorkflowTimer } from '../../core/documents/workflow';
import { hasText, translate, type Language } from '../../core/i18n/translate';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { OutboxLog } from '../notifications/worker';
import { portalUrl } from './certificate';
import type { DocumentCommands } from './commands';
import { holderTexts, messageOwner } from './effects';
import { noticePath } from './notice-path';
import { draftOf, findDocument, type DocumentRow } from './store/rows';
import type { SystemNote } from './system-notes';
import { timerDb, type DocumentTimerTable } from './timer-rows';
import type { CompiledWorkflow } from './workflows';

/**
 * The timer worker (docs/workflows.md, "Timers"; docs/decisions.md): the due rows of
 * `document_timer` fired, each in one transaction that locks the document first, as every action
 * does, then its timer row (FOR UPDATE SKIP LOCKED): two workers never fire one timer twice, and
 * a timer due while someone acts on the document either comes first (their version is then
 * stale, 409) or finds its row gone with the status the action left.
 */

/** Who the history names for a timer's action: shown as the text `actors.timer`. */
export const TIMER_ACTOR: Principal = {
  subject: 'system:timer',
  roles: [],
  name: 'system:timer',
};

/** What serves a type here: its workflow and the service whose pipeline runs its actions. */
export interface TimedType {
  workflow: CompiledWorkflow;
  documents: Pick<DocumentCommands, 'fireTimer' | 'effectEnvironment'>;
}

export interface TimerOptions {
  db: Kysely<Database>;
  /** The type's workflow and service; undefined for a type this process does not serve. */
  served: (type: string) => TimedType | undefined;
  log: OutboxLog;
  /** Pause between polls; 0 starts no timer (tests call runOnce). Default 60 s. */
  intervalMs?: number;
  /** Rows handled per poll. Default 50. */
  batchSize?: number;
  /** A row that failed is tried again this long after. Default 5 min. */
  retryAfterMs?: number;
  /** Attempts before a failing row is left alone (kept, logged). Default 5. */
  maxAttempts?: number;
  now?: () => Date;
  /** Asks the outbox to deliver now (a reminder was queued). */
  wake?: () => void;
}

export interface TimerRunResult {
  fired: number;
  reminded: number;
  /** Rows whose document had left the status, or whose machine said no: dropped. */
  skipped: number;
  failed: number;
}

export interface TimerWorker {
  /** What it was started with: a second worker on the same database is started from it. */
  readonly options: TimerOptions;
  /** One poll: the rows due at `now` (default: the clock's) handled. */
  runOnce(now?: Date): Promise<TimerRunResult>;
  /** Stops polling and waits for the poll under way. */
  stop(): Promise<void>;
  /** Timers past their time (at `at`, default the clock's) not yet handled nor given up. */
  dueCount(at?: Date): Promise<number>;
}

type Outcome = 'fired' | 'reminded' | 'skipped' | 'gone';
type TimerRow = Pick<DocumentTimerTable, 'timer' | 'kind' | 'status' | 'due_at'> & {
  id: string;
  reminder: number;
};

export function startTimers(options: TimerOptions): TimerWorker {
  const db = timerDb(options.db);
  const { log } = options;
  const intervalMs = options.intervalMs ?? 60_000;
  const batchSize = options.batchSize ?? 50;
  const retryAfterMs = options.retryAfterMs ?? 5 * 60_000;
  const maxAttempts = options.maxAttempts ?? 5;
  const clock = options.now ?? (() => new Date());
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  /** The rows due, read without a lock: each is claimed in its own transaction. */
  async function dueRows(at: Date) {
    return db
      .selectFrom('document_timer')
      .select(['id', 'document_id', 'type'])
      .where('due_at', '<=', at)
      .where('attempts', '<', maxAttempts)
      .where((w) =>
        w.or([
          w('claimed_at', 'is', null),
          w('claimed_at', '<=', new Date(at.getTime() - retryAfterMs)),
        ]),
      )
      .orderBy('due_at')
      .orderBy('id')
      .limit(batchSize)
      .execute();
  }

  async function handle(
    candidate: { id: string; document_id: string; type: string },
    served: TimedType,
    at: Date,
  ): Promise<Outcome> {
    return options.db.transaction().execute(async (trx) => {
      // The document first, as every action locks it: no deadlock with one deleting its timers.
      const document = await findDocument(trx, candidate.type, candidate.document_id, {
        forUpdate: true,
      });
      const row = await timerDb(trx)
        .selectFrom('document_timer')
        .selectAll()
        .where('id', '=', candidate.id)
        .where('due_at', '<=', at)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!row) return 'gone';
      await timerDb(trx).deleteFrom('document_timer').where('id', '=', row.id).execute();
      const definition = served.workflow.definition;
      const declared = definition.timers?.[row.timer];
      // Left the status (or moved by a publish): the timer belonged to a stay that is over.
      if (
        !document ||
        !declared ||
        document.status !== row.status ||
        !timersOf(definition, document.status)[row.timer]
      )
        return 'skipped';
      if (row.kind === 'fire') {
        const note = historyNote(served, row);
        await served.documents.fireTimer(
          trx,
          row.type,
          row.document_id,
          row.timer,
          TIMER_ACTOR,
          note,
        );
        return 'fired';
      }
      await remind(trx, served, document, row, declared);
      return 'reminded';
    });
  }

  async function failed(id: string, at: Date, error: unknown): Promise<'skipped' | 'failed'> {
    // The machine refused the delayed event (a guard): the timer does not fire, nothing is stuck.
    if (error instanceof ApiProblem && error.code === ERROR_CODES.actionNotAllowed) {
      await db.deleteFrom('document_timer').where('id', '=', id).execute();
      log.info({ timerId: id }, 'timer refused by the machine, dropped');
      return 'skipped';
    }
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    await db
      .updateTable('document_timer')
      .set((eb) => ({ claimed_at: at, attempts: eb('attempts', '+', 1), last_error: reason }))
      .where('id', '=', id)
      .execute();
    log.error({ err: error, timerId: id }, 'timer failed, will be tried again');
    return 'failed';
  }

  async function runOnce(now?: Date): Promise<TimerRunResult> {
    const at = now ?? clock();
    const result: TimerRunResult = { fired: 0, reminded: 0, skipped: 0, failed: 0 };
    for (const candidate of await dueRows(at)) {
      if (stopping) break;
      const served = options.served(candidate.type);
      // A type another process serves (a module switched off here) is left to it.
      if (!served) continue;
      let outcome: Outcome | 'failed';
      try {
        outcome = await handle(candidate, served, at);
      } catch (error) {
        outcome = await failed(candidate.id, at, error);
      }
      if (outcome !== 'gone') result[outcome]++;
    }
    if (result.reminded > 0) options.wake?.();
    return result;
  }

  function schedule(): void {
    if (stopping || intervalMs <= 0) return;
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  }

  function tick(): void {
    timer = undefined;
    if (stopping) return;
    running = runOnce()
      .catch((error: unknown) => log.error({ err: error }, 'timer poll failed'))
      .finally(() => {
        running = undefined;
        schedule();
      });
  }

  schedule();
  return {
    options,
    runOnce,
    async dueCount(at = clock()) {
      const row = await db
        .selectFrom('document_timer')
        .select((eb) => eb.fn.countAll<string>().as('due'))
        .where('due_at', '<=', at)
        .where('attempts', '<', maxAttempts)
        .executeTakeFirstOrThrow();
      return Number(row.due);
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}

/** The history's note of a timer fired (`<type>.history.<timer>`), when the texts have one. */
function historyNote(served: TimedType, row: TimerRow & { type: string }): SystemNote | undefined {
  const key = `${row.type}.history.${row.timer}`;
  const { texts } = served.documents.effectEnvironment;
  if (!hasText(texts, 'en', key)) return undefined;
  const params = { date: new Date(row.due_at).toISOString().slice(0, 10) };
  return { key, params, text: translate(texts, 'en', key, params) };
}

/** A date as the holder reads it in their language (UTC: the day the timer is due). */
export function spokenDate(date: Date, language: Language): string {
  return new Intl.DateTimeFormat(language === 'fr' ? 'fr-FR' : 'en-GB', {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(date);
}

/** A reminder's notice to the holder, in their language: `<message>.subject`, `.body`. */
async function remind(
  trx: Transaction<Database>,
  served: TimedType,
  document: DocumentRow,
  row: TimerRow,
  timer: WorkflowTimer,
): Promise<void> {
  const reminder = timer.reminders?.[row.reminder];
  if (!reminder) return;
  const workflow = served.workflow.definition;
  const environment = served.documents.effectEnvironment;
  const context = {
    trx,
    workflow,
    document: draftOf(document),
    principal: TIMER_ACTOR,
    environment,
  };
  const { language, t } = await holderTexts(context);
  const due = daysBefore(new Date(row.due_at), -reminder.before.days);
  const params = {
    number: document.number ?? document.id,
    date: spokenDate(due, language),
    days: reminder.before.days,
  };
  const link = portalUrl(environment.publicUrl, noticePath(workflow, context.document));
  const body = [
    document.owner_name ? t('notices.greeting', { name: document.owner_name }) : '',
    t(`${reminder.message}.body`, params),
    t('notices.link', { link }),
  ]
    .filter(Boolean)
    .join('\n');
  await messageOwner(context, {
    subject: t(`${reminder.message}.subject`, params),
    body,
    language,
  });
}
