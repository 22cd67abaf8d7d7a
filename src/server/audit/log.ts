import type { AuditLineKind } from '../../core/audit/lines';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { addressClass } from '../http/address-class';

// What a line records (read, change, export, sign-in...): one list, the search's and the portal's.
export { AUDIT_LINE_KINDS as AUDIT_KINDS } from '../../core/audit/lines';
export type AuditKind = AuditLineKind;

/** One line to record. */
export interface AuditEntry {
  actor: string;
  actorName: string;
  kind: AuditKind;
  /** What was done, as a dotted key worded by the texts `audit.actions.<action>`. */
  action: string;
  documentId?: string;
  documentType?: string;
  target?: string;
  route?: string;
  screen?: string;
  addressClass?: string;
  detail?: Record<string, unknown>;
  /** When; the database's clock by default (a test's controllable clock gives its own). */
  at?: Date;
}

/** The header the portal names its screen in (the route pattern of the page that asked). */
export const SCREEN_HEADER = 'x-portal-screen';

/** Who asked, through which operation and screen, from which network: an entry's common part. */
export function requestOrigin(
  request: FastifyRequest,
  principal: Principal,
): Pick<AuditEntry, 'actor' | 'actorName' | 'route' | 'screen' | 'addressClass'> {
  const screen = request.headers[SCREEN_HEADER];
  return {
    actor: principal.subject,
    actorName: principal.name ?? principal.preferredUsername ?? principal.subject,
    route: `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`,
    ...(typeof screen === 'string' && screen.length > 0 ? { screen: screen.slice(0, 200) } : {}),
    addressClass: addressClass(request.ip),
  };
}

export interface AuditLogOptions {
  /** Lines are written together at most this long after the first is recorded. Default 200 ms. */
  flushEveryMs?: number;
  /** A batch this long is written at once. Default 200. */
  maxBatch?: number;
  log?: Pick<FastifyBaseLogger, 'error'>;
}

/**
 * The audit trail's writer, one per process. A read must not wait for its audit line (the read
 * path's budget is 10 %; docs/performance.md), so lines are queued and written in one multi-row
 * INSERT per batch; `flush` is awaited when the process closes (and by tests). A crash loses at
 * most one batch window of read lines, never a change: changes are recorded with the change
 * (`recordNow`, in the change's transaction).
 */
export class AuditLog {
  private queue: AuditEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly flushEveryMs: number;
  private readonly maxBatch: number;
  private readonly observers: ((entries: readonly AuditEntry[]) => void)[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: AuditLogOptions = {},
  ) {
    this.flushEveryMs = options.flushEveryMs ?? 200;
    this.maxBatch = options.maxBatch ?? 200;
  }

  /** Queues a line: written within the batch window. */
  record(entry: AuditEntry): void {
    this.tell([entry]);
    this.queue.push(entry);
    if (this.queue.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushEveryMs);
  }

  /** Writes lines now, in `db` (a transaction: they stand or fall with it). */
  async recordNow(entries: readonly AuditEntry[], db: Kysely<Database> = this.db): Promise<void> {
    if (entries.length === 0) return;
    await this.write(entries, db);
    this.tell(entries);
  }

  private async write(entries: readonly AuditEntry[], db: Kysely<Database>): Promise<void> {
    await db.insertInto('audit_event').values(entries.map(toRow)).execute();
  }

  /** Calls `observer` with every line as it is recorded (the metrics count sign-in failures). */
  observe(observer: (entries: readonly AuditEntry[]) => void): void {
    this.observers.push(observer);
  }

  private tell(entries: readonly AuditEntry[]): void {
    for (const observer of this.observers) observer(entries);
  }

  /** Writes every queued line; resolves once they are in the database. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    this.writing = this.writing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.write(batch, this.db);
      } catch (error) {
        this.options.log?.error({ err: error, lines: batch.length }, 'audit lines not written');
      }
    });
    await this.writing;
  }
}

function toRow(entry: AuditEntry) {
  return {
    ...(entry.at ? { at: entry.at.toISOString() } : {}),
    actor: entry.actor,
    actor_name: entry.actorName,
    kind: entry.kind,
    action: entry.action,
    document_id: entry.documentId ?? null,
    document_type: entry.documentType ?? null,
    target: entry.target ?? null,
    route: entry.route ?? null,
    screen: entry.screen ?? null,
    address_class: entry.addressClass ?? null,
    detail: entry.detail ? JSON.stringify(entry.detail) : null,
  };
}
