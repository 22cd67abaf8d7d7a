import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { sql, type ColumnType, type Kysely } from 'kysely';
import type { Database } from './schema';

/** Migration 0017's process table, known to this module only. */
type ProcessTables = {
  server_process: {
    id: string;
    definitions_digest: string;
    host: string;
    pid: number;
    started_at: ColumnType<Date, never, never>;
    seen_at: ColumnType<Date, never, Date>;
  };
};

export interface RegistryLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** Another live process whose definition set differs from this one's. */
export interface OtherDefinitions {
  digest: string;
  host: string;
  pid: number;
}

export interface ProcessRegistryOptions {
  db: Kysely<Database>;
  /** Digest of the definition set this process loaded (the bundle's version). */
  digest: string;
  log: RegistryLog;
  /** How often the process says it is alive and looks at the others. Default 30 s. */
  heartbeatMs?: number;
}

/**
 * The server processes on one database, each with its definitions' digest: a difference is
 * logged whenever it changes. A dead process stops counting after three missed heartbeats.
 */
export class ProcessRegistry {
  readonly id = randomUUID();
  private readonly db: Kysely<ProcessTables>;
  private readonly heartbeatMs: number;
  private timer: NodeJS.Timeout | undefined;
  /** The differing digests last reported, so a lasting difference is logged once. */
  private reported = '';

  /** The definition set this process serves now: a publish switches it (app.ts). */
  private served: string;
  private log: RegistryLog;

  private constructor(options: ProcessRegistryOptions) {
    this.db = options.db.withTables<ProcessTables>() as unknown as Kysely<ProcessTables>;
    this.heartbeatMs = options.heartbeatMs ?? 30_000;
    this.served = options.digest;
    this.log = options.log;
  }

  /** Records this process and looks at the others once before it serves anything. */
  static async start(options: ProcessRegistryOptions): Promise<ProcessRegistry> {
    const registry = new ProcessRegistry(options);
    await registry.beat();
    const failed = (error: unknown) =>
      registry.log.warn({ err: error }, 'process registry heartbeat failed');
    registry.timer = setInterval(() => void registry.beat().catch(failed), registry.heartbeatMs);
    registry.timer.unref();
    return registry;
  }

  /** The process now serves another definition set: its own row says so, under the same id. */
  async serve(digest: string, log: RegistryLog = this.log): Promise<void> {
    this.served = digest;
    this.log = log;
    await this.db
      .updateTable('server_process')
      .set({ definitions_digest: digest, seen_at: sql<Date>`now()` })
      .where('id', '=', this.id)
      .execute();
  }

  /** Says this process is alive, forgets long-dead ones, and reports differing definitions. */
  async beat(): Promise<OtherDefinitions[]> {
    await this.db
      .insertInto('server_process')
      .values({
        id: this.id,
        definitions_digest: this.served,
        host: os.hostname(),
        pid: process.pid,
      })
      .onConflict((c) => c.column('id').doUpdateSet({ seen_at: sql<Date>`now()` }))
      .execute();
    await this.db
      .deleteFrom('server_process')
      .where(sql<boolean>`seen_at < now() - ${this.heartbeatMs * 10} * interval '1 millisecond'`)
      .execute();
    const others = await this.differing();
    this.report(others);
    return others;
  }

  /** The live processes (seen within three heartbeats) that loaded another definition set. */
  async differing(): Promise<OtherDefinitions[]> {
    const rows = await this.db
      .selectFrom('server_process')
      .select(['definitions_digest', 'host', 'pid'])
      .where('id', '!=', this.id)
      .where('definitions_digest', '!=', this.served)
      .where(sql<boolean>`seen_at >= now() - ${this.heartbeatMs * 3} * interval '1 millisecond'`)
      .orderBy('started_at')
      .execute();
    return rows.map((r) => ({ digest: r.definitions_digest, host: r.host, pid: r.pid }));
  }

  /** Stops the heartbeat and removes this process's row (a graceful shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.db.deleteFrom('server_process').where('id', '=', this.id).execute();
  }

  private report(others: OtherDefinitions[]): void {
    const digests = [...new Set(others.map((o) => o.digest))].sort().join(',');
    if (digests === this.reported) return;
    const before = this.reported;
    this.reported = digests;
    if (digests) {
      this.log.warn(
        { definitions: this.served, otherDefinitions: others },
        `Processes on this database run different definition sets: this one ${this.served}, ` +
          `others ${digests.replaceAll(',', ', ')}. Expected during a rolling restart; ` +
          'otherwise give every process the same DEFINITIONS_DIR and restart them.',
      );
    } else if (before) {
      this.log.info(
        { definitions: this.served },
        'Every process on this database runs the same definition set again',
      );
    }
  }
}
