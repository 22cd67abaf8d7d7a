import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AuditEntry } from '../audit/log';

/** What the outbox and the timers hold now, read when the metrics are scraped. */
export interface Backlog {
  outbox(): Promise<{ pending: number; oldestAgeSeconds: number }>;
  timersDue(): Promise<number>;
}

/** A database pool's connections now (PostgreSQL); PGlite has one connection and no pool. */
export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
}

/** Latency buckets in seconds: a list answers in milliseconds, a PDF or a sign-in in seconds. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/** The first word of a statement: select, insert, update, delete... (few values, as a label). */
export function operationOf(statement: string): string {
  const word = /^\s*\(?\s*([a-z]+)/i.exec(statement)?.[1]?.toLowerCase() ?? 'other';
  return ['select', 'insert', 'update', 'delete', 'with'].includes(word) ? word : 'other';
}

/**
 * The process's own figures (CPU, memory, event loop lag, garbage collection), collected once
 * per process: prom-client watches them with a timer and observers it never stops, so a
 * process building many servers (the API tests) would otherwise run one of each per server.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The process's metrics in Prometheus's format (docs/deployment.md lists them and what to
 * alert on). One registry per server, not prom-client's global one: tests run several servers
 * in a process, each with its own figures. Values read from the database (the outbox, the
 * timers) are read when scraped, so an idle process queries nothing.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status_code'>;
  private readonly queries: Histogram<'operation' | 'outcome'>;
  private readonly signInFailures: Counter<'reason'>;
  private readonly definitions: Gauge<'digest' | 'set_version'>;
  private backlog: Backlog | undefined;
  private pool: (() => PoolState | undefined) | undefined;
  private outboxOfScrape: Promise<Awaited<ReturnType<Backlog['outbox']>> | undefined> | undefined;

  constructor() {
    const registers = [this.registry];
    this.requests = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time from a request received to its answer sent, by route pattern and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.queries = new Histogram({
      name: 'portal_db_query_duration_seconds',
      help: 'Time a database statement took, by its first word and whether it failed',
      labelNames: ['operation', 'outcome'],
      buckets: QUERY_BUCKETS,
      registers,
    });
    this.signInFailures = new Counter({
      name: 'portal_sign_in_failures_total',
      help: 'Sign-ins refused, by reason (a wrong password, a locked account...)',
      labelNames: ['reason'],
      registers,
    });
    this.definitions = new Gauge({
      name: 'portal_definitions_info',
      help: 'The definition set served: 1 on the digest and published version served',
      labelNames: ['digest', 'set_version'],
      registers,
    });
    // In `collect`, `this` is the gauge: the metrics' sources are reached through these.
    const poolNow = () => this.pool?.();
    const backlogNow = () => this.backlog;
    // The outbox's two gauges read the one query their scrape made (`scrape`).
    const outboxNow = () => this.outboxOfScrape;
    new Gauge({
      name: 'portal_db_pool_connections',
      help: 'Database connections of the pool, by state (PostgreSQL only)',
      labelNames: ['state'],
      registers,
      collect() {
        const state = poolNow();
        if (!state) return;
        this.set({ state: 'total' }, state.total);
        this.set({ state: 'idle' }, state.idle);
        this.set({ state: 'waiting' }, state.waiting);
      },
    });
    new Gauge({
      name: 'portal_outbox_pending_messages',
      help: 'Messages waiting to be sent or being sent',
      registers,
      async collect() {
        const outbox = await outboxNow();
        if (outbox) this.set(outbox.pending);
      },
    });
    new Gauge({
      name: 'portal_outbox_oldest_pending_age_seconds',
      help: 'How long the oldest message waiting to be sent has waited (0 when none waits)',
      registers,
      async collect() {
        const outbox = await outboxNow();
        if (outbox) this.set(outbox.oldestAgeSeconds);
      },
    });
    new Gauge({
      name: 'portal_timers_due',
      help: 'Workflow timers past their time and not yet handled',
      registers,
      async collect() {
        const due = await backlogNow()
          ?.timersDue()
          .catch(() => undefined);
        if (due !== undefined) this.set(due);
      },
    });
  }

  /** Records one answered request; `route` is the route's pattern, never the address asked. */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.requests.observe({ method, route, status_code: String(statusCode) }, seconds);
  }

  /** Records one database statement (the database's query hook calls it). */
  observeQuery(statement: string, seconds: number, failed: boolean): void {
    this.queries.observe(
      { operation: operationOf(statement), outcome: failed ? 'error' : 'ok' },
      seconds,
    );
  }

  /** Counts the audit trail's refused sign-ins as they are recorded. */
  observeAudit(entries: readonly AuditEntry[]): void {
    for (const entry of entries) {
      if (entry.action !== 'sign-in.failed') continue;
      const reason = entry.detail?.reason;
      this.signInFailures.inc({ reason: typeof reason === 'string' ? reason : 'unknown' });
    }
  }

  /** The definition set now served: the previous one's line is removed. */
  serving(digest: string, setVersion: number): void {
    this.definitions.reset();
    this.definitions.set({ digest, set_version: String(setVersion) }, 1);
  }

  /** Where the outbox's and the timers' figures come from: the app now serving. */
  readBacklogFrom(backlog: Backlog): void {
    this.backlog = backlog;
  }

  readPoolFrom(pool: () => PoolState | undefined): void {
    this.pool = pool;
  }

  /** The text a scrape gets, and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    // A failed read (the database away) leaves its gauges out of this scrape, not the answer.
    this.outboxOfScrape = this.backlog?.outbox().catch(() => undefined);
    const [own, ofProcess] = await Promise.all([
      this.registry.metrics(),
      processMetrics().metrics(),
    ]);
    return { contentType: this.registry.contentType, body: `${own}\n${ofProcess}` };
  }
}
