/**
 * Profiles single user steps of the portal in Chromium (docs/performance.md, "Steps"): the
 * sign-in redirect, the first open of an application from a list, the identity-administration
 * screens and a catalogue screen. For each step and run it records the requests (in order,
 * bytes transferred, the server's time from the browser's timing), the JavaScript chunks
 * loaded, the longest chain of requests that waited for one another (sequential round trips),
 * the page's main-thread time (CDP Performance metrics) and long tasks, and the wall time.
 *
 *   npm run bench:steps -- --url http://localhost:8170 [--runs 5] [--step sign-in] [--verbose]
 *
 * The portal must be running (built, as `npm start` serves it). Each run uses a fresh browser
 * context (empty HTTP cache, service workers blocked so every request is seen by the page):
 * the first visit, the worst case. Wall times are medians of the runs; on a shared machine
 * they move, bytes, requests and round trips do not.
 */
import { parseArgs } from 'node:util';
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium } from '../tests/support/browser';
import { obtainToken } from './token';
import { visaApplication } from '../tests/support/visa-data';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.PORTAL_URL ?? 'http://localhost:8170' },
    runs: { type: 'string', default: '5' },
    step: { type: 'string', multiple: true },
    verbose: { type: 'boolean', default: false },
  },
});
const BASE = args.url.replace(/\/$/, '');
const RUNS = Number(args.runs);

const PERSONAS = {
  applicant: { login: 'applicant', password: 'Palm-Breeze-2041' },
  idadmin: { login: 'idadmin', password: 'Key-Keeper-8105!' },
  catalogue: { login: 'catalogue', password: 'Ledger-Stone-2976!' },
} as const;

interface RequestRecord {
  id: string;
  url: string;
  type: string;
  start: number; // ms since the step's start
  end: number;
  bytes: number; // transferred (headers and body, as received)
  serverMs: number | undefined; // request sent -> first byte of the response
  status: number;
  cached: boolean; // from the browser's cache: no bytes, no server
}

interface StepResult {
  wallMs: number;
  requests: RequestRecord[];
  scriptMs: number;
  taskMs: number;
  layoutMs: number;
  longTasks: number[];
}

/** Records the requests a page makes over CDP, with the step's start as time zero. */
class Recorder {
  private readonly byId = new Map<string, RequestRecord>();
  private all: RequestRecord[] = [];
  private inFlight = 0;
  private lastActivity = Date.now();

  constructor(cdp: CDPSession) {
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.request.url.startsWith('data:')) return;
      const record: RequestRecord = {
        id: e.requestId,
        url: e.request.url,
        type: e.type ?? '',
        start: e.timestamp * 1000,
        end: e.timestamp * 1000,
        bytes: 0,
        serverMs: undefined,
        status: 0,
        cached: false,
      };
      // A redirect keeps its request id: the hop before it becomes its own record.
      const previous = this.byId.get(e.requestId);
      if (previous && e.redirectResponse) {
        previous.status = e.redirectResponse.status;
        previous.end = e.timestamp * 1000;
        previous.bytes = e.redirectResponse.encodedDataLength;
        const t = e.redirectResponse.timing;
        if (t) previous.serverMs = t.receiveHeadersStart - t.sendEnd;
        previous.id = `${e.requestId}:redirect`;
      } else this.inFlight++;
      this.byId.set(e.requestId, record);
      this.all.push(record);
      this.lastActivity = Date.now();
    });
    cdp.on('Network.responseReceived', (e) => {
      const record = this.byId.get(e.requestId);
      if (!record) return;
      record.status = e.response.status;
      record.cached = Boolean(e.response.fromDiskCache || e.response.fromPrefetchCache);
      const t = e.response.timing;
      if (t && !record.cached) record.serverMs = t.receiveHeadersStart - t.sendEnd;
    });
    const done = (e: { requestId: string; timestamp: number; encodedDataLength?: number }) => {
      const record = this.byId.get(e.requestId);
      if (!record) return;
      record.end = e.timestamp * 1000;
      if (e.encodedDataLength !== undefined) record.bytes = e.encodedDataLength;
      this.byId.delete(e.requestId);
      this.inFlight--;
      this.lastActivity = Date.now();
    };
    cdp.on('Network.requestServedFromCache', (e) => {
      const record = this.byId.get(e.requestId);
      if (record) record.cached = true;
    });
    cdp.on('Network.loadingFinished', done);
    cdp.on('Network.loadingFailed', (e) => done({ ...e, encodedDataLength: undefined }));
  }

  /** Starts a step: requests before now are forgotten. */
  mark(): void {
    this.all = [];
  }

  requests(): RequestRecord[] {
    // Times from the step's first request.
    const first = Math.min(...this.all.map((r) => r.start));
    const origin = Number.isFinite(first) ? first : 0;
    return this.all.map((r) => ({ ...r, start: r.start - origin, end: r.end - origin }));
  }

  /** Waits until no request has been in flight for `quietMs`. */
  async idle(quietMs = 500, maxMs = 15000): Promise<void> {
    const until = Date.now() + maxMs;
    while (Date.now() < until) {
      if (this.inFlight <= 0 && Date.now() - this.lastActivity >= quietMs) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Main-thread time of the page's renderer so far, in ms (CDP Performance.getMetrics). */
async function cpu(cdp: CDPSession) {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as {
    metrics: Array<{ name: string; value: number }>;
  };
  const get = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
  return {
    script: get('ScriptDuration'),
    task: get('TaskDuration'),
    layout: get('LayoutDuration') + get('RecalcStyleDuration'),
  };
}

/**
 * The longest chain of requests in which each started after the previous one finished: the
 * round trips a step waits for one after another, whatever the latency.
 */
export function sequentialRoundTrips(requests: ReadonlyArray<{ start: number; end: number }>) {
  const sorted = [...requests].sort((a, b) => a.end - b.end);
  const depth: number[] = [];
  sorted.forEach((r, i) => {
    let best = 0;
    for (let j = 0; j < i; j++) if (sorted[j]!.end <= r.start) best = Math.max(best, depth[j]!);
    depth[i] = best + 1;
  });
  return Math.max(0, ...depth);
}

async function longTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __longTasks?: number[] }).__longTasks ?? []);
}

async function newContext(browser: Awaited<ReturnType<typeof launchChromium>>) {
  const context = await browser.newContext({
    locale: 'en-NZ',
    serviceWorkers: 'block',
    viewport: { width: 1366, height: 900 },
  });
  await context.addInitScript(() => {
    const tasks: number[] = [];
    (window as unknown as { __longTasks: number[] }).__longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(Math.round(entry.duration));
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  return { context, page, cdp, recorder: new Recorder(cdp) };
}

/** No spinner left and `selector` visible: the page shows what the step opened. */
async function ready(page: Page, selector: string) {
  await page.locator(selector).first().waitFor({ state: 'visible', timeout: 60000 });
  await page.waitForFunction(
    () => document.querySelectorAll('.mantine-Loader-root, [aria-busy="true"]').length === 0,
    undefined,
    { timeout: 60000, polling: 50 },
  );
}

async function signIn(page: Page, login: string, password: string, path: string) {
  await page.goto(`${BASE}/#${path}`);
  await page.locator('#username').waitFor();
  await page.locator('#username').fill(login);
  await page.locator('#password').fill(password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(`${BASE}/#${path}`, { timeout: 60000 });
}

/** Runs `action` as one step, from a quiet page, and records it. */
async function measure(
  s: Awaited<ReturnType<typeof newContext>>,
  action: () => Promise<void>,
): Promise<StepResult> {
  await s.recorder.idle();
  s.recorder.mark();
  await s.page.evaluate(() => {
    (window as unknown as { __longTasks: number[] }).__longTasks.length = 0;
  });
  const before = await cpu(s.cdp);
  const started = performance.now();
  await action();
  const wallMs = performance.now() - started;
  await s.recorder.idle();
  const after = await cpu(s.cdp);
  return {
    wallMs,
    requests: s.recorder.requests(),
    scriptMs: after.script - before.script,
    taskMs: after.task - before.task,
    layoutMs: after.layout - before.layout,
    longTasks: await longTasks(s.page),
  };
}

type Browser = Awaited<ReturnType<typeof launchChromium>>;
type Step = (browser: Browser) => Promise<StepResult>;

const STEPS: Record<string, Step> = {
  /** A protected page opened signed out, the sign-in page, and back to the page. */
  'sign-in: open a protected page -> sign-in form': async (browser) => {
    const s = await newContext(browser);
    try {
      await s.page.goto(`${BASE}/#/home`);
      await ready(s.page, 'main');
      return await measure(s, async () => {
        await s.page.goto(`${BASE}/#/dashboard/home`);
        await s.page.locator('#username').waitFor({ timeout: 60000 });
      });
    } finally {
      await s.context.close();
    }
  },
  'sign-in: submit -> dashboard shown': async (browser) => {
    const s = await newContext(browser);
    try {
      await s.page.goto(`${BASE}/#/dashboard/home`);
      await s.page.locator('#username').waitFor({ timeout: 60000 });
      await s.page.locator('#username').fill(PERSONAS.applicant.login);
      await s.page.locator('#password').fill(PERSONAS.applicant.password);
      return await measure(s, async () => {
        await s.page.locator('button[type=submit]').click();
        await s.page.waitForURL(`${BASE}/#/dashboard/home`, { timeout: 60000 });
        await ready(s.page, 'main h1, main h2');
      });
    } finally {
      await s.context.close();
    }
  },
  'application: My Library row -> application shown (first open)': async (browser) => {
    const s = await newContext(browser);
    try {
      const { login, password } = PERSONAS.applicant;
      await signIn(s.page, login, password, '/dashboard/my-library');
      await ready(s.page, 'main tbody tr:has-text("Visa application")');
      return await measure(s, async () => {
        await s.page.locator('main tbody tr:has-text("Visa application")').first().click();
        await s.page.waitForURL(/#\/visa\/application\//);
        await ready(s.page, 'main [role=tabpanel]');
      });
    } finally {
      await s.context.close();
    }
  },
  'identity: dashboard -> accounts list': async (browser) => {
    const s = await newContext(browser);
    try {
      const { login, password } = PERSONAS.idadmin;
      await signIn(s.page, login, password, '/dashboard/home');
      await ready(s.page, 'main h1, main h2');
      return await measure(s, async () => {
        await s.page.evaluate(() => {
          location.hash = '#/connectid/accounts';
        });
        await ready(s.page, 'main tbody tr');
      });
    } finally {
      await s.context.close();
    }
  },
  'identity: accounts list -> account view': async (browser) => {
    const s = await newContext(browser);
    try {
      const { login, password } = PERSONAS.idadmin;
      await signIn(s.page, login, password, '/connectid/accounts');
      await ready(s.page, 'main tbody tr');
      return await measure(s, async () => {
        await s.page.locator('main tbody tr').first().click();
        await s.page.waitForURL(/#\/connectid\/accounts\/view\//);
        await ready(s.page, 'main [role=tabpanel]');
      });
    } finally {
      await s.context.close();
    }
  },
  'catalogue: dashboard -> country catalogue': async (browser) => {
    const s = await newContext(browser);
    try {
      const { login, password } = PERSONAS.catalogue;
      await signIn(s.page, login, password, '/dashboard/home');
      await ready(s.page, 'main h1, main h2');
      return await measure(s, async () => {
        await s.page.evaluate(() => {
          location.hash = '#/catalog/search/country';
        });
        await ready(s.page, 'main tbody tr');
      });
    } finally {
      await s.context.close();
    }
  },
};

/** A stored visa application of the demo applicant, for the first-open step (one is enough). */
async function ensureApplication(): Promise<void> {
  const { access_token: token } = await obtainToken({
    portalUrl: BASE,
    username: PERSONAS.applicant.login,
    password: PERSONAS.applicant.password,
  });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const mine = await fetch(`${BASE}/api/evisa/dashboard/library`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ options: { page: 1, itemsPerPage: 1 } }),
  });
  if (!mine.ok) throw new Error(`PATCH library: ${mine.status} ${await mine.text()}`);
  if (((await mine.json()) as { items: unknown[] }).items.length > 0) return;
  const response = await fetch(`${BASE}/api/evisa/visa-application`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ data: visaApplication('VIS', 'VV30') }),
  });
  if (!response.ok) throw new Error(`POST visa-application: ${response.status}`);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const kB = (bytes: number) => (bytes / 1000).toFixed(1);
const shortUrl = (url: string) => url.replace(BASE, '').replace(/-[\w-]{8}\.(js|css)$/, '.$1');

/** Answered by the browser's cache: no bytes on the wire, no round trip. */
const fromCache = (r: RequestRecord) => r.cached || (r.bytes === 0 && r.status === 200);

function summarise(name: string, runs: StepResult[]) {
  const last = runs[runs.length - 1]!;
  const per = runs.map((r) => ({
    requests: r.requests.length,
    bytes: r.requests.reduce((sum, q) => sum + q.bytes, 0),
    js: r.requests.filter((q) => /\.js(\?|$)/.test(q.url)),
    api: r.requests.filter((q) => q.url.includes('/api/')),
    cached: r.requests.filter(fromCache).length,
    trips: sequentialRoundTrips(r.requests.filter((q) => !fromCache(q))),
    serverMs: r.requests.reduce((sum, q) => sum + (q.serverMs ?? 0), 0),
  }));
  const jsBytes = per.map((p) => p.js.reduce((sum, q) => sum + q.bytes, 0));
  console.log(`\n## ${name}\n`);
  console.log(
    `wall ms median ${median(runs.map((r) => r.wallMs)).toFixed(0)} ` +
      `(runs: ${runs.map((r) => r.wallMs.toFixed(0)).join(', ')})`,
  );
  console.log(
    `requests ${median(per.map((p) => p.requests))}, ` +
      `transferred ${kB(median(per.map((p) => p.bytes)))} kB ` +
      `(JS ${median(per.map((p) => p.js.length))} files, ${kB(median(jsBytes))} kB), ` +
      `API calls ${median(per.map((p) => p.api.length))}, ` +
      `from cache ${median(per.map((p) => p.cached))}, ` +
      `sequential round trips ${median(per.map((p) => p.trips))}`,
  );
  console.log(
    `server ms (sum of request->first byte) median ${median(per.map((p) => p.serverMs)).toFixed(0)}; ` +
      `main thread ms: tasks ${median(runs.map((r) => r.taskMs)).toFixed(0)}, ` +
      `script ${median(runs.map((r) => r.scriptMs)).toFixed(0)}, ` +
      `style+layout ${median(runs.map((r) => r.layoutMs)).toFixed(0)}; ` +
      `long tasks (last run) ${last.longTasks.join(', ') || 'none'}`,
  );
  console.log('\nwaterfall of the last run (start-end ms, kB, server ms, status, url):');
  for (const r of [...last.requests].sort((a, b) => a.start - b.start)) {
    console.log(
      `  ${r.start.toFixed(0).padStart(5)}-${r.end.toFixed(0).padEnd(5)} ` +
        `${kB(r.bytes).padStart(7)} ${(r.serverMs ?? 0).toFixed(0).padStart(5)} ` +
        `${fromCache(r) ? 'cache' : r.status} ` +
        `${shortUrl(r.url).slice(0, 110)}`,
    );
  }
}

async function main() {
  await ensureApplication();
  const browser = await launchChromium();
  try {
    const names = Object.keys(STEPS).filter(
      (name) => !args.step || args.step.some((s) => name.includes(s)),
    );
    for (const name of names) {
      const runs: StepResult[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await STEPS[name]!(browser));
      summarise(name, runs);
      if (args.verbose) console.log(JSON.stringify(runs, null, 1));
    }
  } finally {
    await browser.close();
  }
}

await main();
