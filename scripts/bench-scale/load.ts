/**
 * One load measurement with autocannon (its programmatic API), reduced to what the scale
 * benchmark reports: latency percentiles from every response's own time (not autocannon's
 * whole-millisecond histogram, which has no p95), requests per second, and every error.
 */
import { createRequire } from 'node:module';

/** The part of autocannon's request description the benchmark uses. */
export interface LoadRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Changes the request before it goes; a falsy answer starts the sequence again. */
  setupRequest?: (request: LoadRequest, context: Record<string, unknown>) => LoadRequest | null;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

interface AutocannonOptions extends LoadRequest {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  timeout?: number;
  overallRate?: number;
  connectionRate?: number;
  requests?: LoadRequest[];
}

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(
    event: 'response',
    listener: (client: unknown, status: number, bytes: number, time: number) => void,
  ): void;
}

// autocannon ships no types; this is the one call the benchmark makes.
const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: AutocannonOptions,
) => AutocannonInstance;

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds; or a number of requests with `amount`. */
  duration?: number;
  amount?: number;
  /** A fixed number of requests per second over all connections (autocannon's overallRate). */
  overallRate?: number;
  /** A fixed number of requests per second from each connection. */
  connectionRate?: number;
  request?: LoadRequest;
  /** A sequence each connection repeats (create, then update what it created). */
  requests?: LoadRequest[];
}

export interface LoadResult {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  /** Completed requests per second. */
  rps: number;
  count: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  /** Status codes other than 2xx, with their counts, to say what went wrong. */
  statuses: Record<string, number>;
  duration: number;
  /** Every response's time, sorted. */
  times: number[];
  /** CPU milliseconds the server process spent per request, when the caller measured it. */
  serverCpu?: number;
  /** CPU milliseconds PostgreSQL's backends spent per request, when the caller measured it. */
  databaseCpu?: number;
  /** CPU milliseconds the load generator (this process) spent per request. */
  generatorCpu?: number;
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const index = (sorted.length - 1) * q;
  const low = Math.floor(index);
  const high = Math.ceil(index);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (index - low);
}

/** The summary of responses' times (sorted) over `duration` seconds. */
function summarise(
  times: number[],
  duration: number,
  failures: Pick<LoadResult, 'errors' | 'non2xx' | 'statuses'>,
): LoadResult {
  return {
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    p99: quantile(times, 0.99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    rps: times.length / duration,
    count: times.length,
    duration,
    times,
    ...failures,
  };
}

/** Runs autocannon and summarises its responses. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const times: number[] = [];
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 5 }),
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    ...(options.connectionRate ? { connectionRate: options.connectionRate } : {}),
    // A slow list at ten connections must not turn into timeouts: it is a latency to report.
    timeout: 600,
    ...options.request,
    ...(options.requests ? { requests: options.requests } : {}),
  });
  instance.on('response', (_client, _status, _bytes, time) => times.push(time));
  const result = await instance;
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats)
      .filter(([status]) => !status.startsWith('2'))
      .map(([status, { count }]) => [status, count]),
  );
  return summarise(
    times.sort((a, b) => a - b),
    result.duration,
    { errors: result.errors, non2xx: result.non2xx, statuses },
  );
}

/**
 * Several runs of the same measurement as one: taken in turns with others, or side by side
 * over `duration` seconds.
 */
export function combine(results: readonly LoadResult[], duration?: number): LoadResult {
  const statuses: Record<string, number> = {};
  for (const result of results) {
    for (const [status, n] of Object.entries(result.statuses)) {
      statuses[status] = (statuses[status] ?? 0) + n;
    }
  }
  const requests = results.reduce((sum, result) => sum + result.count, 0);
  /** A cost per request over all the runs, when every run measured it. */
  const perRequest = (cost: (result: LoadResult) => number | undefined) =>
    results.every((result) => cost(result) !== undefined)
      ? results.reduce((sum, result) => sum + cost(result)! * result.count, 0) / requests
      : undefined;
  const serverCpu = perRequest((result) => result.serverCpu);
  const databaseCpu = perRequest((result) => result.databaseCpu);
  const generatorCpu = perRequest((result) => result.generatorCpu);
  return {
    ...summarise(
      results.flatMap((result) => result.times).sort((a, b) => a - b),
      duration ?? results.reduce((sum, result) => sum + result.duration, 0),
      {
        errors: results.reduce((sum, result) => sum + result.errors, 0),
        non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
        statuses,
      },
    ),
    ...(serverCpu === undefined ? {} : { serverCpu }),
    ...(databaseCpu === undefined ? {} : { databaseCpu }),
    ...(generatorCpu === undefined ? {} : { generatorCpu }),
  };
}

/** Connections of an evenly spread rate: beyond it, each connection sends more per second. */
const MAX_SPREAD_CONNECTIONS = 200;

/**
 * A fixed arrival rate spread evenly over each second, as k6's constant-arrival-rate keeps
 * one: one-connection autocannon runs, each sending its request(s) once a second
 * (connectionRate), started 1/rate of a second apart. autocannon's `overallRate` instead gives
 * every connection its share at the start of each second, so all of a second's requests arrive
 * at once.
 */
export async function loadAtRate(options: {
  url: string;
  rate: number;
  duration: number;
  requests: LoadRequest[];
}): Promise<LoadResult & { connections: number }> {
  const perConnection = Math.ceil(options.rate / MAX_SPREAD_CONNECTIONS);
  const connections = Math.round(options.rate / perConnection);
  const runs = await Promise.all(
    Array.from({ length: connections }, async (_, index) => {
      await new Promise((resolve) => setTimeout(resolve, (index * 1000) / connections));
      return load({
        url: options.url,
        connections: 1,
        duration: options.duration,
        connectionRate: perConnection,
        requests: options.requests,
      });
    }),
  );
  return { ...combine(runs, options.duration), connections };
}
