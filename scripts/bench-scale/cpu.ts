/**
 * CPU time, read from Linux's /proc: what a measurement cost the portal's process and the
 * PostgreSQL backends serving the benchmark's database, whatever else the machine ran meanwhile.
 * On a shared machine latency says how long a request waited for a core; CPU time says what it
 * needed.
 */
import fs from 'node:fs';
import type pg from 'pg';

/** Linux's clock ticks per second, in which /proc/<pid>/stat counts CPU time. */
const CLOCK_TICKS = 100;

/** CPU milliseconds (user + system, every thread) a process has used; NaN when unknown. */
export function cpuOf(pid: number | undefined): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/**
 * The CPU the client backends of one database have used (this monitor's own connection
 * excepted). Backends opened during a measurement count whole; one closed during it is lost,
 * which the portal's pool (idle connections close after ten seconds) makes rare.
 */
export class DatabaseCpu {
  constructor(private readonly monitor: pg.Client) {}

  async snapshot(): Promise<Map<number, number>> {
    const { rows } = await this.monitor.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where datname = current_database() and backend_type = 'client backend'
         and pid <> pg_backend_pid()`,
    );
    return new Map(rows.map(({ pid }) => [pid, cpuOf(pid)]));
  }

  /** CPU milliseconds used since `before`. */
  async since(before: Map<number, number>): Promise<number> {
    const now = await this.snapshot();
    let total = 0;
    for (const [pid, cpu] of now) total += cpu - (before.get(pid) ?? 0);
    return total;
  }
}
