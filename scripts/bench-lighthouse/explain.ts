/**
 * `npm run bench:lighthouse -- --explain`: what Lighthouse's simulation (Lantern) did with one
 * run, read from the run's own artifacts (its trace and network log) with the same computed
 * metrics the score is made of. For LCP, the requests and tasks of its graph in simulated time
 * (the last to end is what the LCP waits for); for TBT, the tasks over 50 ms simulated between
 * the simulated FCP and TTI, which are what it sums (docs/performance.md, "Why the dashboard's
 * score is not 95").
 */
import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js';
import { LanternInteractive } from 'lighthouse/core/computed/metrics/lantern-interactive.js';
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';
import { LanternTotalBlockingTime } from 'lighthouse/core/computed/metrics/lantern-total-blocking-time.js';
import type { Result as LighthouseResult, RunnerResult } from 'lighthouse';

/** The parts of Lantern's graph nodes read here. */
interface SimulatedNode {
  type: 'network' | 'cpu';
  /** Observed start, in trace microseconds. */
  startTime: number;
  request?: { url: string; transferSize: number };
  childEvents?: Array<{ name: string; dur?: number; args?: { data?: { url?: string } } }>;
}

interface NodeTiming {
  startTime: number;
  endTime: number;
  duration: number;
}

interface Estimate {
  timeInMs: number;
  nodeTimings: Map<SimulatedNode, NodeTiming>;
}

interface LanternResult {
  timing: number;
  optimisticEstimate: Estimate;
  pessimisticEstimate: Estimate;
}

type Computed = { request(data: unknown, context: unknown): Promise<unknown> };
const compute = (metric: Computed, data: unknown, context: unknown) =>
  metric.request(data, context) as Promise<LanternResult>;

/** The main-thread work a task did, by trace event, in ms measured (not simulated). */
function taskContents(node: SimulatedNode): string {
  const kinds = new Map<string, number>();
  for (const event of node.childEvents ?? []) {
    if (!event.dur) continue;
    if (
      !/^(FunctionCall|EvaluateScript|v8\.compile|v8\.evaluateModule|Layout|UpdateLayoutTree|Paint|ParseHTML|ParseAuthorStyleSheet|TimerFire|EventDispatch|RunMicrotasks|FireAnimationFrame|XHRReadyStateChange)/.test(
        event.name,
      )
    )
      continue;
    kinds.set(event.name, (kinds.get(event.name) ?? 0) + event.dur / 1000);
  }
  const source = node.childEvents?.find((event) => event.args?.data?.url)?.args?.data?.url;
  const parts = [...kinds]
    .filter(([, ms]) => ms >= 1)
    .map(([name, ms]) => `${name} ${ms.toFixed(0)}`);
  return `${parts.join(', ')}${source ? ` (${new URL(source).pathname})` : ''}`;
}

const ms = (value: number) => `${value.toFixed(0).padStart(6)}`;

/** The explanation of one run, as lines of text. */
export async function explainRun(answer: RunnerResult): Promise<string[]> {
  const lhr: LighthouseResult = answer.lhr;
  const artifacts = answer.artifacts as unknown as Record<string, unknown>;
  const data = {
    trace: artifacts.Trace,
    devtoolsLog: artifacts.DevtoolsLog,
    gatherContext: artifacts.GatherContext,
    settings: lhr.configSettings,
    URL: artifacts.URL,
    SourceMaps: artifacts.SourceMaps,
    HostDPR: artifacts.HostDPR,
    simulator: null,
  };
  const context = { computedCache: new Map(), settings: lhr.configSettings };
  const lcp = await compute(LanternLargestContentfulPaint as Computed, data, context);
  const fcp = await compute(LanternFirstContentfulPaint as Computed, data, context);
  const tti = await compute(LanternInteractive as Computed, data, context);
  const tbt = await compute(LanternTotalBlockingTime as Computed, data, context);

  const lines = [
    `LCP ${lcp.timing.toFixed(0)} ms simulated; its graph (optimistic), start -> end:`,
  ];
  const lcpNodes = [...lcp.optimisticEstimate.nodeTimings].sort(
    ([, a], [, b]) => a.endTime - b.endTime,
  );
  for (const [node, timing] of lcpNodes) {
    if (node.type === 'cpu' && timing.duration < 50) continue;
    const what =
      node.type === 'network' && node.request
        ? `${new URL(node.request.url).pathname} (${(node.request.transferSize / 1000).toFixed(1)} kB)`
        : `task: ${taskContents(node)}`;
    lines.push(`  ${ms(timing.startTime)} -> ${ms(timing.endTime)}  ${what}`);
  }

  lines.push(
    `TBT ${tbt.timing.toFixed(0)} ms simulated, from FCP ${fcp.optimisticEstimate.timeInMs.toFixed(0)}` +
      ` to TTI ${tti.pessimisticEstimate.timeInMs.toFixed(0)}; tasks over 50 ms simulated` +
      ' (start -> end, simulated; what ran, ms measured):',
  );
  const first = Math.min(
    ...[...tbt.pessimisticEstimate.nodeTimings.keys()]
      .filter((node) => node.type === 'network')
      .map((node) => node.startTime),
  );
  const tasks = [...tbt.pessimisticEstimate.nodeTimings]
    .filter(([node, timing]) => node.type === 'cpu' && timing.duration > 50)
    .sort(([, a], [, b]) => a.startTime - b.startTime);
  for (const [node, timing] of tasks) {
    const observed = ((node.startTime - first) / 1000).toFixed(0);
    lines.push(
      `  ${ms(timing.startTime)} -> ${ms(timing.endTime)}  (observed at ${observed} ms) ${taskContents(node)}`,
    );
  }
  return lines;
}
