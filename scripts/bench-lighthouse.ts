/**
 * `npm run bench:lighthouse`: Lighthouse's performance score of the public home page (/#/home)
 * and of a signed-in person's dashboard (/#/dashboard/home), with Lighthouse's default mobile
 * settings (simulated slow 4G and a 4x slower CPU), against the portal as production serves it
 * (docs/performance.md, "Home page and dashboard").
 *
 * Steps: brings dist/portal (and dist/server/main.js when there is one) up to date with
 * scripts/build.ts as `npm start` does, starts the server (dist/server/main.js when built, else
 * src/main.ts through tsx) on a free loopback port with an embedded database in a temporary
 * folder and the demo data, launches Debian's Chromium through chrome-launcher, then runs
 * Lighthouse on each page RUNS times. It does so twice: served as deployed, over HTTPS and
 * HTTP/2 through a TLS-ending front (tests/support/tls-front.ts, the load balancer of
 * docs/deployment.md), which the goal is judged on; then from the portal's own port over plain
 * HTTP/1.1, as on a developer's machine, for comparison. The dashboard needs a session: the
 * demo applicant signs in through the real sign-in page, with Playwright attached to the same
 * Chromium over its debugging port; the identity server's session cookie then signs each
 * Lighthouse run in silently (Lighthouse clears the HTTP cache, the service worker and the
 * origin's storage before each run, not the cookies).
 *
 * Options: --runs N (default 3), --page home|dashboard (one page only), --protocol https|http
 * (one way of serving only), --no-build, --build (build even when current), --reports DIR
 * (writes each run's HTML report there), --explain (prints what the simulation waited for in
 * each run: bench-lighthouse/explain.ts), --record (rewrites the results block of
 * docs/performance.md). Not part of `npm test`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Result as LighthouseResult } from 'lighthouse';
import { chromium } from 'playwright-core';
import { explainRun } from './bench-lighthouse/explain';
import { recordResults } from './bench-record';
import { CHROMIUM_PATH, CHROMIUM_QUIET_FEATURES } from '../tests/support/browser';
import { freePort } from '../tests/support/portal-process';
import { startTlsFront } from '../tests/support/tls-front';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The build served: STATIC_DIR when set (a build kept apart), else dist/portal. */
const STATIC_DIR = process.env.STATIC_DIR ?? path.join(ROOT, 'dist/portal');
const SERVER_BUNDLE = path.join(ROOT, 'dist/server/main.js');
/** The demo applicant (seeds/connectid.json). */
const APPLICANT = { login: 'applicant', password: 'Palm-Breeze-2041' };
/** The goal for both pages, mobile preset. */
const GOAL = 95;

interface BenchPage {
  id: 'home' | 'dashboard';
  route: string;
  signedIn: boolean;
}

const PAGES: BenchPage[] = [
  { id: 'home', route: '/home', signedIn: false },
  { id: 'dashboard', route: '/dashboard/home', signedIn: true },
];

/** What one Lighthouse run gives; times in ms. */
interface RunFigures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  speedIndex: number;
  /** Bytes over the wire, all requests. */
  bytes: number;
  requests: number;
}

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    page: { type: 'string' },
    build: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    reports: { type: 'string' },
    explain: { type: 'boolean', default: false },
    record: { type: 'boolean', default: false },
    protocol: { type: 'string' },
  },
});
const RUNS = Number(options.runs);

/**
 * Brings the builds up to date with scripts/build.ts, as `npm start` does: the portal (unless
 * STATIC_DIR names a build kept apart), and the compiled server when there is one. Each is
 * rebuilt only when its sources changed (its stamp), or always with --build.
 */
function buildIfNeeded(): void {
  if (options['no-build']) return;
  const targets = [
    ...(process.env.STATIC_DIR ? [] : ['--portal']),
    ...(fs.existsSync(SERVER_BUNDLE) ? ['--server'] : []),
  ];
  for (const target of targets) {
    const args = ['scripts/build.ts', target, ...(options.build ? [] : ['--if-stale'])];
    const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed`);
  }
}

interface RunningPortal {
  url: string;
  stop(): Promise<void>;
}

/** The portal in its own process, on a fresh embedded database with the demo data. */
async function startPortal(publicUrl?: string): Promise<RunningPortal & { port: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-lighthouse-'));
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const compiled = fs.existsSync(SERVER_BUNDLE);
  const args = compiled ? [SERVER_BUNDLE] : ['--import', 'tsx', 'src/main.ts'];
  process.stdout.write(`Starting the portal (${compiled ? 'dist/server/main.js' : 'tsx'})...\n`);
  let output = '';
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl ?? url,
      DATA_DIR: path.join(dataDir, 'db'),
      DATABASE_URL: '',
      STATIC_DIR,
      DEMO_DATA: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The portal exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`The portal did not start:\n${output}`);
    const healthy = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url: publicUrl ?? url,
    port,
    stop: async () => {
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs the demo applicant in through the real sign-in page, in Lighthouse's own Chromium. */
async function signIn(port: number, portalUrl: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    await page.goto(`${portalUrl}/#/dashboard/home`);
    await page.locator('#username').waitFor({ timeout: 60_000 });
    await page.locator('#username').fill(APPLICANT.login);
    await page.locator('#password').fill(APPLICANT.password);
    await page.locator('button[type=submit]').click();
    await page.waitForURL(`${portalUrl}/#/dashboard/home`, { timeout: 60_000 });
    await page.getByRole('heading', { level: 2 }).first().waitFor({ timeout: 60_000 });
    await page.close();
  } finally {
    // Detaches Playwright; the browser stays open for Lighthouse.
    await browser.close();
  }
}

function figures(lhr: LighthouseResult): RunFigures {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const requests = lhr.audits['network-requests']?.details;
  const items = requests && 'items' in requests ? requests.items : [];
  return {
    score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
    fcp: numeric('first-contentful-paint'),
    lcp: numeric('largest-contentful-paint'),
    tbt: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    speedIndex: numeric('speed-index'),
    bytes: numeric('total-byte-weight'),
    requests: items.length,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * One Lighthouse run with the default configuration (the mobile preset, simulated throttling).
 * A run whose trace came out broken (Lighthouse's NO_NAVSTART and the like, seen on a busy
 * machine) is run again, up to twice.
 */
async function audit(url: string, port: number) {
  for (let attempt = 1; ; attempt += 1) {
    const flags = { port, output: 'html' as const, logLevel: 'error' as const };
    const answer = await lighthouse(url, { ...flags, onlyCategories: ['performance'] });
    if (!answer) throw new Error(`Lighthouse gave no result for ${url}`);
    const error = answer.lhr.runtimeError;
    if (!error) return answer;
    if (attempt === 3) throw new Error(`${url}: ${error.message}`);
    process.stdout.write(`${url}: ${error.code}, running again\n`);
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * How the pages are served. `https`: as deployed (docs/deployment.md), through a TLS-ending front
 * that speaks HTTP/2 to the browser; the goal is judged on it. `http`: the portal's own port,
 * plain HTTP/1.1, as `npm start` serves it on a developer's machine; for comparison.
 */
type Protocol = 'https' | 'http';
const PROTOCOLS: Record<Protocol, string> = {
  https: 'HTTPS, HTTP/2 (as deployed)',
  http: 'HTTP/1.1, no TLS (for comparison)',
};

async function main() {
  const pages = PAGES.filter((p) => !options.page || p.id === options.page);
  if (pages.length === 0) throw new Error(`--page must be one of ${PAGES.map((p) => p.id)}`);
  const protocols = (options.protocol ? [options.protocol] : ['https', 'http']) as Protocol[];
  if (protocols.some((p) => !(p in PROTOCOLS))) throw new Error('--protocol must be https or http');
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}`);
  buildIfNeeded();
  const results = new Map<string, RunFigures[]>();
  let version = '';
  for (const protocol of protocols) {
    version = await measure(protocol, pages, results);
  }
  await report(protocols, pages, results, version);
}

/** Runs Lighthouse RUNS times on each page served one way; results keyed `protocol:page`. */
async function measure(
  protocol: Protocol,
  pages: BenchPage[],
  results: Map<string, RunFigures[]>,
): Promise<string> {
  const frontPort = protocol === 'https' ? await freePort() : undefined;
  const portal = await startPortal(frontPort ? `https://localhost:${frontPort}` : undefined);
  const front = frontPort ? await startTlsFront(portal.port, frontPort) : undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  let version = '';
  try {
    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM_PATH,
      chromeFlags: [
        ...(front ? [`--ignore-certificate-errors-spki-list=${front.spkiHash}`] : []),
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        CHROMIUM_QUIET_FEATURES,
      ],
    });
    for (const page of pages) {
      if (page.signedIn) await signIn(chrome.port, portal.url);
      const runs: RunFigures[] = [];
      for (let run = 1; run <= RUNS; run += 1) {
        const answer = await audit(`${portal.url}/#${page.route}`, chrome.port);
        const { lhr } = answer;
        version = lhr.lighthouseVersion;
        const result = figures(lhr);
        runs.push(result);
        process.stdout.write(
          `${protocol} ${page.id} run ${run}: score ${result.score}, FCP ${seconds(result.fcp)}, ` +
            `LCP ${seconds(result.lcp)}, TBT ${Math.round(result.tbt)} ms, ` +
            `CLS ${result.cls.toFixed(3)}\n`,
        );
        if (options.explain) process.stdout.write(`${(await explainRun(answer)).join('\n')}\n`);
        if (options.reports) {
          fs.mkdirSync(options.reports, { recursive: true });
          const name = `${protocol}-${page.id}-${run}`;
          const report = Array.isArray(answer.report) ? answer.report[0] : answer.report;
          fs.writeFileSync(path.join(options.reports, `${name}.html`), report ?? '');
          fs.writeFileSync(
            path.join(options.reports, `${name}.json`),
            JSON.stringify(lhr, null, 1),
          );
        }
      }
      results.set(`${protocol}:${page.id}`, runs);
    }
  } finally {
    chrome?.kill();
    await front?.close();
    await portal.stop();
  }
  return version;
}

async function report(
  protocols: Protocol[],
  pages: BenchPage[],
  results: Map<string, RunFigures[]>,
  version: string,
) {
  const rows = [
    [
      'page',
      'served as',
      'score',
      'FCP',
      'LCP',
      'TBT',
      'CLS',
      'Speed Index',
      'transferred',
      'requests',
      'scores of the runs',
    ],
  ];
  const goals: string[] = [];
  for (const protocol of protocols) {
    for (const page of pages) {
      const runs = results.get(`${protocol}:${page.id}`) ?? [];
      const m = (key: keyof RunFigures) => median(runs.map((r) => r[key]));
      rows.push([
        `\`/#${page.route}\`${page.signedIn ? ' (signed in)' : ''}`,
        PROTOCOLS[protocol],
        String(m('score')),
        seconds(m('fcp')),
        seconds(m('lcp')),
        `${Math.round(m('tbt'))} ms`,
        m('cls').toFixed(3),
        seconds(m('speedIndex')),
        `${(m('bytes') / 1000).toFixed(1)} kB`,
        String(m('requests')),
        runs.map((r) => r.score).join(', '),
      ]);
      if (protocol === 'https') {
        goals.push(
          `- ${m('score') >= GOAL ? 'met' : 'MISSED'}: ${page.id} at least ${GOAL} as deployed (median ${m('score')})`,
        );
      }
    }
  }
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const machine =
    `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ` +
    `load average ${os.loadavg()[0]?.toFixed(1)}, Node ${process.versions.node}, ` +
    `Lighthouse ${version}, mobile preset (simulated throttling), median of ${RUNS} runs`;
  const text = [
    machine,
    '',
    line(rows[0]!),
    line(rows[0]!.map(() => '---')),
    ...rows.slice(1).map(line),
    '',
    ...goals,
  ].join('\n');
  process.stdout.write(`\n${text}\n`);
  if (options.record) await recordResults('bench:lighthouse', text);
}

await main();
