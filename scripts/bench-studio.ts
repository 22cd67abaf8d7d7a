/**
 * `npm run bench:studio`: how long the studio makes an analyst wait, on the built portal
 * (`npm run build` first) started as the end-to-end tests start it (its own process, a fresh
 * embedded database, the demo accounts), driven in headless Chromium (docs/performance.md,
 * "Studio"). Not part of `npm test`.
 *
 * - open: a new page at /#/studio, signed in, until the first tab is usable (the catalogue
 *   designer's Identifier box takes input);
 * - preview: a field added to a form (a new one each run), from the button until the preview
 *   shows it;
 * - publish: POST /api/definitions/sets (a catalogue's title changed) until its answer, which
 *   comes once the process serves the new version; the portal's log is then searched for a
 *   warning that other processes run a different definition set (there is one process).
 *
 * Options: --runs N (default 5), --record (rewrites the results block of docs/performance.md).
 */
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { recordResults } from './bench-record';
import { launchChromium } from '../tests/support/browser';
import { apiToken, signIn } from '../tests/support/e2e-accounts';
import { startPortal, type PortalProcess } from '../tests/support/portal-process';

const ANALYST = { login: 'analyst', password: 'Chart-Weaver-5318!' };
const COUNTRY = 'catalogs/country.json';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    record: { type: 'boolean', default: false },
  },
});
const RUNS = Number(options.runs);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function choose(
  page: Page,
  scope: Page | ReturnType<Page['locator']>,
  label: string,
  option: string,
) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Watches the page, from now, for an input whose label reads `label` inside `container`; the
 * page records (in `window.__studioBench[name]`) the first moment it is there, on its own clock
 * (performance.now(), from the page's navigation). Measured in the page, not by polling from
 * here: Playwright's waits retry every 500 ms after the first few, which rounded a 0.55 s
 * preview up to 1.05 s.
 */
const WATCH = `(() => {
  const found = (container, label) => [...document.querySelectorAll(container + ' label')].some(
    (l) => l.textContent.trim().replace(/\\s*\\*$/, '') === label &&
      document.getElementById(l.htmlFor)?.tagName === 'INPUT');
  window.__studioWatch = (name, container, label) => {
    const bench = (window.__studioBench ??= {});
    const look = () => {
      if (bench[name] !== undefined || !found(container, label)) return false;
      bench[name] = performance.now();
      return true;
    };
    if (look()) return;
    const observer = new MutationObserver(() => look() && observer.disconnect());
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  };
})();`;

async function watchedAt(page: Page, name: string): Promise<number> {
  const handle = await page.waitForFunction(
    (key) => (window as unknown as { __studioBench?: Record<string, number> }).__studioBench?.[key],
    name,
    { timeout: 120_000, polling: 100 },
  );
  return (await handle.jsonValue()) as number;
}

/** A new page at the studio until its first tab takes input (from the page's navigation). */
async function openStudio(page: Page, portal: PortalProcess): Promise<number> {
  await page.addInitScript(`${WATCH}
    addEventListener('DOMContentLoaded', () =>
      window.__studioWatch('open', 'form[aria-label="Catalogue definition"]', 'Identifier'));`);
  await page.goto(`${portal.url}/#/studio`);
  const shown = await watchedAt(page, 'open');
  // It shows and takes input.
  await page
    .getByRole('form', { name: 'Catalogue definition' })
    .getByRole('textbox', { name: 'Identifier', exact: true })
    .fill('x');
  return shown;
}

/** A field added to the sponsor application's contact section, until the preview shows it. */
async function previewField(page: Page, portal: PortalProcess, run: number): Promise<number> {
  await page.goto(`${portal.url}/#/studio/forms`);
  await choose(page, page, 'Document type', 'Sponsor application (sponsor-application)');
  const add = page.getByRole('region', { name: 'Add a field' });
  await choose(page, add, 'Section', 'Contact details (contact)');
  const label = `Bench field ${run} ${Date.now()}`;
  await add
    .getByRole('textbox', { name: 'Field name', exact: true })
    .fill(`benchField${run}x${Date.now()}`);
  await add.getByRole('textbox', { name: 'Label in English', exact: true }).fill(label);
  await add.getByRole('textbox', { name: 'Label in French', exact: true }).fill(`${label} (fr)`);
  const button = add.getByRole('button', { name: 'Add the field and preview' });
  // The click's moment and the watch, both on the page's clock.
  await button.evaluate((element, watched) => {
    element.addEventListener(
      'click',
      () => {
        const bench = ((
          window as unknown as { __studioBench?: Record<string, number> }
        ).__studioBench ??= {});
        bench.clicked = performance.now();
      },
      { capture: true, once: true },
    );
    (
      window as unknown as { __studioWatch: (n: string, c: string, l: string) => void }
    ).__studioWatch('preview', '[data-testid="form-preview"]', watched);
  }, label);
  await button.click();
  const shown = await watchedAt(page, 'preview');
  const clicked = await page.evaluate(
    () => (window as unknown as { __studioBench: Record<string, number> }).__studioBench.clicked!,
  );
  // The user's view of it: the box is there and has its name.
  await page
    .getByRole('region', { name: 'Preview' })
    .getByRole('textbox', { name: label })
    .waitFor({ timeout: 120_000 });
  return shown - clicked;
}

/** A publish through the API, until its answer: the process then serves the new version. */
async function publish(portal: PortalProcess, token: string, run: number): Promise<number> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const history = (await (
    await fetch(`${portal.url}/api/definitions/sets`, { headers })
  ).json()) as {
    versions: Array<{ version: number }>;
  };
  const base = history.versions[0]!.version;
  const set = (await (
    await fetch(`${portal.url}/api/definitions/sets/${base}`, { headers })
  ).json()) as { files: Record<string, string> };
  const country = JSON.parse(set.files[COUNTRY]!) as { labels: { en: { title: string } } };
  country.labels.en.title = `Countries ${run}`;
  const body = JSON.stringify({
    base,
    note: `Bench ${run}`,
    changes: { [COUNTRY]: JSON.stringify(country, null, 2) },
  });
  const started = performance.now();
  const answer = await fetch(`${portal.url}/api/definitions/sets`, {
    method: 'POST',
    headers,
    body,
  });
  const elapsed = performance.now() - started;
  if (answer.status !== 201) throw new Error(`publish: ${answer.status} ${await answer.text()}`);
  const served = await fetch(`${portal.url}/api/definitions/index`);
  const catalogs = ((await served.json()) as { catalogs: Array<{ id: string; labels?: unknown }> })
    .catalogs;
  if (!catalogs.some((c) => c.id === 'country')) throw new Error('country not served');
  return elapsed;
}

const portal = await startPortal();
const browser = await launchChromium();
const figures: Record<'open' | 'preview' | 'publish', number[]> = {
  open: [],
  preview: [],
  publish: [],
};
let falseWarnings = 0;
try {
  const context = await browser.newContext({ locale: 'en-NZ' });
  const first = await context.newPage();
  await signIn(first, portal, ANALYST.login, ANALYST.password, '/studio');
  await first.close();
  for (let run = 0; run < RUNS; run++) {
    const page = await context.newPage();
    figures.open.push(await openStudio(page, portal));
    figures.preview.push(await previewField(page, portal, run));
    await page.close();
  }
  const token = await apiToken(portal, ANALYST.login, ANALYST.password);
  for (let run = 0; run < RUNS; run++) figures.publish.push(await publish(portal, token, run));
  falseWarnings = (portal.logs().match(/different definition sets/g) ?? []).length;
} finally {
  await browser.close();
  await portal.stop();
}

const row = (name: string, target: string, values: number[]) =>
  `| ${name} | ${median(values).toFixed(0)} ms | ${values[0]!.toFixed(0)} ms | ${Math.min(...values).toFixed(0)} to ${Math.max(...values).toFixed(0)} ms | ${target} |`;
const table = [
  `| step (${RUNS} runs) | median | first run | range | target |`,
  '| --- | --- | --- | --- | --- |',
  row('open the studio, first tab usable', '< 1.5 s', figures.open),
  row('add a field, until its preview shows', '< 1 s', figures.preview),
  row('publish, until the process serves it', '< 1 s', figures.publish),
  '',
  `Warnings that other processes run a different definition set, over ${RUNS} publishes from one process: ${falseWarnings}.`,
].join('\n');
process.stdout.write(`${table}\n`);
if (options.record) await recordResults('bench:studio', table);
