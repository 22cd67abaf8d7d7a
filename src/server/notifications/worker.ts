import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../db/schema';
import type { MailAttachment, MailProvider, SmsProvider } from './providers';
import { withNotificationTables, type NotificationDatabase } from './tables';

/** Channels the worker delivers; any other (the portal's `inbox`) stays PENDING, untouched. */
export const DELIVERED_CHANNELS = ['email', 'sms'] as const;
export type DeliveredChannel = (typeof DELIVERED_CHANNELS)[number];

export interface OutboxLog {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

export interface OutboxOptions {
  db: Kysely<Database>;
  /** Absent: e-mails are not sent but marked KEPT (the embedded default). */
  mail?: MailProvider | null;
  /** Absent: SMS are not sent but marked KEPT. */
  sms?: SmsProvider | null;
  log: OutboxLog;
  /** Pause between polls; 0 starts no timer (tests call runOnce). Default 2000. */
  intervalMs?: number;
  /** Rows claimed per poll. Default 20. */
  batchSize?: number;
  /** Attempts before a row is FAILED. Default 5. */
  maxAttempts?: number;
  /** Wait before attempt n+1 after n failed attempts. Default 30 s, 2, 8, 32 min. */
  backoffMs?: (failedAttempts: number) => number;
  /** A row claimed longer ago (its process died while sending) goes back to PENDING. 10 min. */
  staleAfterMs?: number;
  now?: () => Date;
  /** Told of every attempt at an inbox message's row once written; its failure is only logged. */
  onAttempt?: (attempt: OutboxAttempt) => Promise<void>;
  /** Wraps each delivery (the traces give it a span); by default it is only run. */
  around?: <T>(attributes: Record<string, string>, deliver: () => Promise<T>) => Promise<T>;
}

/** One attempt at delivering a row of an inbox message, as the worker reports it. */
export interface OutboxAttempt {
  messageId: string;
  channel: string;
  /** sent; retry (failed, will be tried again); failed (that was the last attempt). */
  outcome: 'sent' | 'retry' | 'failed';
  attempts: number;
  error: string | null;
}

export interface OutboxRunResult {
  sent: number;
  retried: number;
  failed: number;
  kept: number;
}

export interface OutboxWorker {
  /** One poll: keep what has no provider, claim a batch, deliver it. */
  runOnce(): Promise<OutboxRunResult>;
  /** Poll now rather than at the next interval (e.g. a confirmation code was just queued). */
  wake(): void;
  /** Stops polling and waits for the delivery in progress; claimed rows not yet sent are released. */
  stop(): Promise<void>;
  /** Messages waiting to be sent or being sent, and how long the oldest has waited. */
  backlog(): Promise<{ pending: number; oldestAgeSeconds: number }>;
}

type OutboxRow = Selectable<NotificationDatabase['outbox']>;

/** Running workers by database, so code that queues a message can ask for a poll now. */
const workers = new WeakMap<object, OutboxWorker>();

/** Asks the worker running on this database (if any) to poll now. */
export function wakeOutbox(db: Kysely<Database>): void {
  workers.get(db)?.wake();
}

/**
 * The outbox worker: rows are claimed by one UPDATE over FOR UPDATE SKIP LOCKED rows, so two
 * processes never claim the same one; a failure retries later, or is FAILED after the last.
 */
export function startOutbox(options: OutboxOptions): OutboxWorker {
  const db = withNotificationTables(options.db);
  const log = options.log;
  const intervalMs = options.intervalMs ?? 2000;
  const batchSize = options.batchSize ?? 20;
  const maxAttempts = options.maxAttempts ?? 5;
  const backoffMs =
    options.backoffMs ?? ((failed: number) => 30_000 * 4 ** Math.max(0, failed - 1));
  const staleAfterMs = options.staleAfterMs ?? 10 * 60_000;
  const now = options.now ?? (() => new Date());
  const providers: Record<DeliveredChannel, MailProvider | SmsProvider | null> = {
    email: options.mail ?? null,
    sms: options.sms ?? null,
  };
  const active = DELIVERED_CHANNELS.filter((c) => providers[c]);
  const keptChannels = DELIVERED_CHANNELS.filter((c) => !providers[c]);

  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let again = false;

  async function keep(): Promise<number> {
    if (keptChannels.length === 0) return 0;
    const rows = await db
      .updateTable('outbox')
      .set({ status: 'KEPT' })
      .where('status', '=', 'PENDING')
      .where('channel', 'in', keptChannels)
      .returning('id')
      .execute();
    return rows.length;
  }

  async function recoverStale(at: Date): Promise<void> {
    const rows = await db
      .updateTable('outbox')
      .set({ status: 'PENDING', next_attempt_at: at })
      .where('status', '=', 'SENDING')
      .where('attempt_at', '<', new Date(at.getTime() - staleAfterMs))
      .returning('id')
      .execute();
    if (rows.length > 0) log.warn({ ids: rows.map((r) => r.id) }, 'outbox rows reclaimed');
  }

  async function claim(at: Date): Promise<OutboxRow[]> {
    if (active.length === 0) return [];
    return db
      .updateTable('outbox')
      .set({
        status: 'SENDING',
        attempts: sql`attempts + 1`,
        attempt_at: at,
      })
      .where('status', '=', 'PENDING')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('outbox')
          .select('id')
          .where('status', '=', 'PENDING')
          .where('channel', 'in', active)
          .where((w) => w.or([w('next_attempt_at', 'is', null), w('next_attempt_at', '<=', at)]))
          .orderBy('created_at')
          .limit(batchSize)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .execute();
  }

  async function attachmentsOf(row: OutboxRow): Promise<MailAttachment[] | undefined> {
    if (!row.attachments?.length) return undefined;
    const files: MailAttachment[] = [];
    for (const { filename, contentType, contentBase64, mediaId } of row.attachments) {
      if (contentBase64 === undefined && !mediaId)
        throw new Error(`attachment ${filename} has no content`);
      const media =
        contentBase64 !== undefined
          ? { content: Buffer.from(contentBase64, 'base64') }
          : await db
              .selectFrom('media')
              .select(['content'])
              .where('id', '=', mediaId!)
              .executeTakeFirst();
      if (!media) throw new Error(`attachment ${mediaId} is missing`);
      files.push({ filename, contentType, content: media.content });
    }
    return files;
  }

  async function deliver(row: OutboxRow): Promise<void> {
    if (row.channel === 'email') {
      await (providers.email as MailProvider).send({
        to: row.recipient,
        subject: row.subject,
        text: row.body,
        attachments: await attachmentsOf(row),
      });
    } else {
      await (providers.sms as SmsProvider).send({ to: row.recipient, text: row.body });
    }
  }

  async function release(rows: OutboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    const ids = rows.map((r) => r.id);
    await db
      .updateTable('outbox')
      .set({ status: 'PENDING', attempts: sql`attempts - 1` })
      .where('status', '=', 'SENDING')
      .where('id', 'in', ids)
      .execute();
  }

  async function report(row: OutboxRow, outcome: OutboxAttempt['outcome'], error: string | null) {
    if (!row.message_id || !options.onAttempt) return;
    try {
      await options.onAttempt({
        messageId: row.message_id,
        channel: row.channel,
        outcome,
        attempts: row.attempts,
        error,
      });
    } catch (failure) {
      log.error({ err: failure, outboxId: row.id }, 'outbox attempt not kept on its message');
    }
  }

  async function runOnce(): Promise<OutboxRunResult> {
    const result: OutboxRunResult = { sent: 0, retried: 0, failed: 0, kept: await keep() };
    const at = now();
    await recoverStale(at);
    const rows = await claim(at);
    for (const [index, row] of rows.entries()) {
      if (stopping) {
        await release(rows.slice(index));
        break;
      }
      try {
        const attributes = { 'messaging.destination.name': row.channel, 'outbox.id': row.id };
        await (options.around ? options.around(attributes, () => deliver(row)) : deliver(row));
        await db
          .updateTable('outbox')
          .set({ status: 'SENT', sent_at: now(), last_error: null })
          .where('id', '=', row.id)
          .where('status', '=', 'SENDING')
          .execute();
        result.sent++;
        await report(row, 'sent', null);
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
        const final = row.attempts >= maxAttempts;
        await db
          .updateTable('outbox')
          .set({
            status: final ? 'FAILED' : 'PENDING',
            next_attempt_at: final ? null : new Date(now().getTime() + backoffMs(row.attempts)),
            last_error: reason,
          })
          .where('id', '=', row.id)
          .where('status', '=', 'SENDING')
          .execute();
        if (final) result.failed++;
        else result.retried++;
        await report(row, final ? 'failed' : 'retry', reason);
        log.warn(
          { outboxId: row.id, channel: row.channel, attempts: row.attempts, final, reason },
          final ? 'outbox message failed' : 'outbox delivery failed, will retry',
        );
      }
    }
    if (rows.length === batchSize) again = true;
    return result;
  }

  function schedule(delay: number): void {
    if (stopping || intervalMs <= 0) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delay);
    timer.unref();
  }

  function tick(): void {
    timer = undefined;
    if (stopping) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = runOnce()
      .catch((error: unknown) => log.error({ err: error }, 'outbox poll failed'))
      .finally(() => {
        running = undefined;
        schedule(again ? 0 : intervalMs);
      });
  }

  schedule(0);

  async function backlog() {
    const row = await db
      .selectFrom('outbox')
      .select((eb) => [
        eb.fn.countAll<string>().as('pending'),
        eb.fn.min('created_at').as('oldest'),
      ])
      // The delivery index's rows (migration 0005): a scrape never reads the sent messages.
      .where('status', '=', 'PENDING')
      .where('channel', 'in', ['email', 'sms'])
      .executeTakeFirstOrThrow();
    const oldest = row.oldest ? new Date(row.oldest).getTime() : undefined;
    return {
      pending: Number(row.pending),
      oldestAgeSeconds: oldest === undefined ? 0 : Math.max(0, (now().getTime() - oldest) / 1000),
    };
  }

  const worker: OutboxWorker = {
    runOnce,
    backlog,
    wake() {
      if (stopping || intervalMs <= 0) return;
      if (running) again = true;
      else schedule(0);
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
      await Promise.all([providers.email?.close?.(), providers.sms?.close?.()]);
      if (workers.get(options.db) === worker) workers.delete(options.db);
    },
  };
  workers.set(options.db, worker);
  return worker;
}
