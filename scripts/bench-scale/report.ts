/**
 * The scale benchmark's report: markdown tables for the terminal and for docs/performance.md,
 * written between the `bench:scale` markers with `--record` (scripts/bench-record.ts).
 */
import type { LoadResult } from './load';

export const ms = (value: number) =>
  Number.isFinite(value) ? (value < 10 ? value.toFixed(1) : value.toFixed(0)) : '-';
export const count = (value: number) => Math.round(value).toLocaleString('en-US');
/** Requests per second: a slow case's fraction still shows. */
export const rate = (value: number) => (value < 10 ? value.toFixed(1) : count(value));

export function table(rows: readonly (readonly string[])[]): string {
  const [header = [], ...body] = rows;
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...body.map(line)].join('\n');
}

/** What went wrong in a measurement, or 0. */
export function errorsOf(result: LoadResult): string {
  const failures = result.errors + result.non2xx;
  if (failures === 0) return '0';
  const statuses = Object.entries(result.statuses).map(([status, n]) => `${n} x ${status}`);
  return [String(failures), ...(result.errors ? [`(${result.errors} socket)`] : []), ...statuses]
    .join(' ')
    .trim();
}

/** The latency, rate and cost columns every measurement row has. */
export const latencyCells = (result: LoadResult) => [
  ms(result.p50),
  ms(result.p95),
  ms(result.p99),
  rate(result.rps),
  count(result.count),
  errorsOf(result),
  result.serverCpu === undefined ? '-' : ms(result.serverCpu),
  result.databaseCpu === undefined ? '-' : ms(result.databaseCpu),
  result.generatorCpu === undefined ? '-' : ms(result.generatorCpu),
];
export const LATENCY_HEADER = [
  'p50 ms',
  'p95 ms',
  'p99 ms',
  'req/s',
  'requests',
  'errors',
  'server CPU ms/req',
  'PostgreSQL CPU ms/req',
  'autocannon CPU ms/req',
];
