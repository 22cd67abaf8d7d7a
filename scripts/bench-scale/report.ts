/**
 * The scale benchmark's report: markdown tables for the terminal and for docs/performance.md,
 * written between the `bench:scale` markers with `--record` (as bench-form.ts records its own).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import * as prettier from 'prettier';
import { PROJECT_ROOT } from '../../src/server/config';
import type { LoadResult } from './load';

const DOC = path.join(PROJECT_ROOT, 'docs/performance.md');
const BEGIN = '<!-- bench:scale results -->';
const END = '<!-- /bench:scale results -->';

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

/** Replaces the results block of docs/performance.md with this run's. */
export async function record(text: string): Promise<void> {
  const doc = await fs.readFile(DOC, 'utf8');
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${DOC} has no ${BEGIN} ... ${END} block`);
  const block = `${BEGIN}\n\n${text}\n\n${END}`;
  const next = doc.slice(0, start) + block + doc.slice(end + END.length);
  const options = (await prettier.resolveConfig(DOC)) ?? {};
  await fs.writeFile(DOC, await prettier.format(next, { ...options, filepath: DOC }));
  process.stdout.write(`Recorded in ${path.relative(PROJECT_ROOT, DOC)}\n`);
}
