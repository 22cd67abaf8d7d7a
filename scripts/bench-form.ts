/**
 * `npm run bench:form`: renders the visa application form with our engine and with stock RJSF
 * in headless Chromium and compares time to first render and keystroke-to-paint latency
 * (docs/performance.md). Not part of `npm test`.
 *
 * Steps: builds bench/ with Vite into dist/bench, writes the entity's validator modules (those
 * compileValidators generates for the server) into dist/bench/validators, serves dist/bench on
 * a loopback port (no CSP: stock RJSF compiles with `new Function`), then alternates runs of
 * each page: one fresh page per run, first render, then KEYSTROKES keys typed one at a time
 * into the same text fields of the applicant section.
 *
 * Options: --runs N (default 3), --keystrokes N (default 200), --record (rewrites the results
 * block of docs/performance.md).
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { recordResults } from './bench-record';
import { build } from 'vite';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { DefinitionBundle, EntityDefinition } from '../src/core/definitions/types';
import { compileValidators } from '../src/server/definitions/validators';
import { sectionsOf } from '../src/core/rules/sections';
import { PROJECT_ROOT } from '../src/server/config';
import { CHROMIUM_PATH, CHROMIUM_QUIET_FEATURES, launchChromium } from '../tests/support/browser';
import type { BenchState } from '../bench/instrument';

const ENTITY = 'visa-application';
const OUT_DIR = path.join(PROJECT_ROOT, 'dist/bench');
/** Text fields of the applicant section (maxLength 70 each), typed into in turn. */
const FIELDS = ['familyName', 'givenName', 'otherNames', 'occupation'];
const TEXT = 'Abcdefghijklmnopqrstuvwxyz Zyxwvutsrqponmlkjihgfedcba';
/** Pause between keystrokes once the previous one has painted. */
const GAP_MS = 30;

type Side = 'ours' | 'stock' | 'floor';

interface RunResult {
  /** root.render() -> first frame after the form's commit. */
  render: number;
  /** Navigation start -> the same frame (includes loading the page's scripts). */
  fromNavigation: number;
  /** Keydown -> the task after the next frame, per keystroke. */
  keystrokes: number[];
  /** Keydown -> the next frame's rAF callback (the script part of the above). */
  scripts: number[];
}

interface Summary {
  median: number;
  p95: number;
  mean: number;
}

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    keystrokes: { type: 'string', default: '200' },
    record: { type: 'boolean', default: false },
    vsync: { type: 'boolean', default: false },
  },
});
const RUNS = Number(options.runs);
const KEYSTROKES = Number(options.keystrokes);

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const index = (sorted.length - 1) * q;
  const low = Math.floor(index);
  const high = Math.ceil(index);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (index - low);
}

const median = (values: number[]) => quantile(values, 0.5);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const summarise = (values: number[]): Summary => ({
  median: median(values),
  p95: quantile(values, 0.95),
  mean: mean(values),
});
/** The median over runs of each statistic. */
const medianOfRuns = (runs: Summary[]): Summary => ({
  median: median(runs.map((r) => r.median)),
  p95: median(runs.map((r) => r.p95)),
  mean: median(runs.map((r) => r.mean)),
});

async function buildPages(): Promise<void> {
  await build({ configFile: path.join(PROJECT_ROOT, 'bench/vite.config.ts'), logLevel: 'warn' });
  // The entity's definition file alone (the rest of the definitions play no part here).
  const file = path.join(PROJECT_ROOT, 'schemas', `${ENTITY}.schema.json`);
  const definition = JSON.parse(await fs.readFile(file, 'utf8')) as EntityDefinition;
  const bundle: DefinitionBundle = {
    modules: [],
    catalogs: [],
    schemas: [definition],
    workflows: [],
    translations: { en: {}, fr: {} },
    version: 'bench',
  };
  // The whole document's module and one per section, at the addresses entityValidators()
  // asks for under /validators.
  const validators = await compileValidators(bundle);
  const source = validators.module('schema', ENTITY);
  if (!source) throw new Error(`No validator module for ${ENTITY}`);
  await fs.mkdir(path.join(OUT_DIR, 'validators', ENTITY), { recursive: true });
  await fs.writeFile(path.join(OUT_DIR, 'validators', `${ENTITY}.js`), source);
  for (const section of sectionsOf(definition)) {
    const module = validators.sectionModule(ENTITY, section.id);
    if (!module) throw new Error(`No validator module for ${ENTITY} section ${section.id}`);
    await fs.writeFile(path.join(OUT_DIR, 'validators', ENTITY, `${section.id}.js`), module);
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/** dist/bench over HTTP on a free loopback port. */
async function serve(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const file = path.join(OUT_DIR, path.normalize(decodeURIComponent(url.pathname)));
    if (!file.startsWith(OUT_DIR + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    fs.readFile(file).then(
      (body) => {
        const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
        response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('No server address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const state = (page: Page) => page.evaluate(() => window.__bench) as Promise<BenchState>;

function fieldSelector(side: Side, field: string): string {
  if (side === 'floor') return `#floor_${field}`;
  return side === 'ours' ? `[id="root.applicant.${field}"]` : `#root_applicant_${field}`;
}

/**
 * The page's state once its first render has painted, read over the DevTools protocol. Not with
 * Playwright's waitForFunction or evaluate: their first call evaluates Playwright's own script in
 * the page (100-170 ms of main thread in traces), which then ran between the form's commit and
 * its paint and counted in the page's first render (120-150 ms of both pages' render -> paint).
 */
async function firstRender(page: Page): Promise<BenchState> {
  const session = await page.context().newCDPSession(page);
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      const { result } = (await session.send('Runtime.evaluate', {
        expression: 'JSON.stringify(window.__bench ?? null)',
        returnByValue: true,
      })) as { result: { value?: string } };
      const found = result.value ? (JSON.parse(result.value) as BenchState | null) : null;
      if (found?.firstPaint !== undefined || found?.error) return found;
      if (Date.now() > deadline) throw new Error('The page did not paint its form within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await session.detach();
  }
}

async function measure(page: Page, origin: string, side: Side): Promise<RunResult> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/${side}.html`, { waitUntil: 'commit' });
  const first = await firstRender(page);
  if (first.error || errors.length) throw new Error(`${side}: ${first.error ?? errors.join('; ')}`);
  const render = (first.firstPaint ?? NaN) - (first.renderStart ?? NaN);
  const fromNavigation = first.firstPaint ?? NaN;

  let typed = 0;
  for (let f = 0; typed < KEYSTROKES; f += 1) {
    const field = FIELDS[f % FIELDS.length] ?? 'familyName';
    const input = page.locator(fieldSelector(side, field));
    await input.click();
    await input.fill('');
    await page.waitForTimeout(200);
    const before = (await state(page)).keystrokes.length;
    const perField = Math.min(Math.ceil(KEYSTROKES / FIELDS.length), KEYSTROKES - typed);
    for (let i = 0; i < perField; i += 1) {
      const expected = before + i + 1;
      await page.keyboard.press(TEXT[i % TEXT.length] ?? 'a');
      await page.waitForFunction((n) => window.__bench.keystrokes.length >= n, expected, {
        polling: 'raf',
        timeout: 30_000,
      });
      await page.waitForTimeout(GAP_MS);
      typed += 1;
    }
    const value = await input.inputValue();
    if (value !== TEXT.slice(0, perField)) {
      throw new Error(`${side}: ${field} holds "${value}" after typing ${perField} keys`);
    }
  }
  const last = await state(page);
  if (last.error || errors.length) throw new Error(`${side}: ${last.error ?? errors.join('; ')}`);
  // Keystrokes recorded while filling/clearing are none (fill dispatches no keydown).
  const samples = last.keystrokes.slice(-KEYSTROKES);
  return {
    render,
    fromNavigation,
    keystrokes: samples.map((s) => s.painted - s.start),
    scripts: samples.map((s) => s.frame - s.start),
  };
}

/**
 * launchChromium's browser (tests/support/browser.ts); unless --vsync, with frames produced as
 * soon as they are needed rather than on the next tick of headless Chromium's 60 Hz clock, so
 * that a keystroke's time to paint is the pages' work, not the wait for the next tick.
 */
async function launchBrowser(): Promise<Browser> {
  if (options.vsync) return launchChromium();
  await launchChromium().then((b) => b.close()); // same checks, same flags below
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      CHROMIUM_QUIET_FEATURES,
      '--disable-gpu-vsync',
      '--disable-frame-rate-limit',
    ],
  });
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
/** How many times `ours` goes into `stock`; n/a when ours is not above zero (at or below the floor). */
const ratio = (stock: number, ours: number) => (ours > 0 ? `${(stock / ours).toFixed(1)}x` : 'n/a');

function table(rows: string[][]): string {
  const [head, ...body] = rows;
  if (!head) return '';
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
}

async function main() {
  process.stdout.write('Building dist/bench...\n');
  await buildPages();
  const server = await serve();
  const browser = await launchBrowser();
  const version = browser.version();
  const results: Record<Side, RunResult[]> = { ours: [], stock: [], floor: [] };
  try {
    for (let run = 1; run <= RUNS; run += 1) {
      for (const side of ['ours', 'stock', 'floor'] as const) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        try {
          const result = await measure(page, server.origin, side);
          results[side].push(result);
          process.stdout.write(
            `run ${run} ${side.padEnd(5)} render ${fmt(result.render)} ms, ` +
              `keystroke median ${fmt(median(result.keystrokes))} ms\n`,
          );
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  await report(results, version);
}

async function report(results: Record<Side, RunResult[]>, chromium: string) {
  const keys = (side: Side) => medianOfRuns(results[side].map((r) => summarise(r.keystrokes)));
  const scripts = (side: Side) => medianOfRuns(results[side].map((r) => summarise(r.scripts)));
  const render = (side: Side) => median(results[side].map((r) => r.render));
  const nav = (side: Side) => median(results[side].map((r) => r.fromNavigation));
  const [ok, sk, os_, ss] = [keys('ours'), keys('stock'), scripts('ours'), scripts('stock')];
  const [fk, fs_] = [keys('floor'), scripts('floor')];
  const row = (name: string, ours: number, stock: number, floor: number) => [
    name,
    fmt(ours),
    fmt(stock),
    ratio(stock, ours),
    fmt(floor),
    ratio(stock - floor, ours - floor),
  ];
  const rows = [
    ['ms, median of runs', 'ours', 'stock RJSF', 'stock / ours', 'floor', 'above floor'],
    row('keystroke -> paint, median', ok.median, sk.median, fk.median),
    row('keystroke -> paint, p95', ok.p95, sk.p95, fk.p95),
    row('keystroke -> paint, mean', ok.mean, sk.mean, fk.mean),
    row('keystroke -> frame start, median', os_.median, ss.median, fs_.median),
    row('keystroke -> frame start, p95', os_.p95, ss.p95, fs_.p95),
    row('first render, render() -> paint', render('ours'), render('stock'), render('floor')),
    row('first render, navigation -> paint', nav('ours'), nav('stock'), nav('floor')),
  ];
  const goals = [
    [`median keystroke -> paint under 16 ms`, ok.median < 16],
    [`median keystroke -> paint at least 5x faster than stock`, sk.median / ok.median >= 5],
    [`first render (render() -> paint) no slower than stock`, render('ours') <= render('stock')],
    [`first render (navigation -> paint) no slower than stock`, nav('ours') <= nav('stock')],
    [
      `first render (navigation -> paint) within 2x the floor page: ` +
        `${(nav('ours') / nav('floor')).toFixed(2)}x`,
      nav('ours') <= 2 * nav('floor'),
    ],
  ] as const;
  const machine =
    `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ` +
    `Node ${process.versions.node}, Chromium ${chromium}, ${RUNS} runs x ${KEYSTROKES} keystrokes`;
  const text = [
    machine,
    '',
    table(rows),
    '',
    ...goals.map(([goal, met]) => `- ${met ? 'met' : 'MISSED'}: ${goal}`),
  ].join('\n');
  process.stdout.write(`\n${text}\n`);
  if (options.record) await recordResults('bench:form', text);
}

await main();
