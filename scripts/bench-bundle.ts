/**
 * `npm run bench`: what the public home page (/#/home) downloads before it shows anything, and
 * whether its JavaScript stays under the budget (docs/performance.md, "Bundle size").
 *
 * Builds the portal with Vite (as `npm run build` does) into dist/portal, then walks Vite's
 * build manifest (dist/portal/.vite/manifest.json) from index.html: the entry script, the
 * chunks it imports statically (the modulepreload links) recursively, and their stylesheets;
 * lazy pages (dynamic imports) are not followed. Anything else the built index.html references
 * as a script, modulepreload or stylesheet counts too. Prints each file's raw and gzip size
 * (node:zlib, level 9; 1 kB = 1000 bytes, as Vite prints) and the totals.
 *
 * Options: --no-build (measure the existing dist/portal), --record (rewrites the results block
 * of docs/performance.md). Exits 1 when the JavaScript is over budget.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { recordResults } from './bench-record';
import { initialFiles, lazyFiles, readManifest } from './vite-manifest';

/** Budget of the home page's initial JavaScript, gzip, in bytes (250 kB). */
const JS_BUDGET_BYTES = 250_000;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = path.join(ROOT, 'dist/portal');

interface Measured {
  file: string;
  raw: number;
  gzip: number;
}

const { values: options } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    record: { type: 'boolean', default: false },
  },
});

/** The scripts, module preloads and stylesheets of our origin the built index.html names. */
function referencedByHtml(html: string): string[] {
  const files: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const isScript = /^<script/i.test(tag);
    const rel = /\brel=["']?([^"'\s>]+)/i.exec(tag)?.[1]?.toLowerCase();
    if (!isScript && rel !== 'modulepreload' && rel !== 'stylesheet') continue;
    const url = /\b(?:src|href)=["']?([^"'\s>]+)/i.exec(tag)?.[1];
    if (!url || /^[a-z]+:/i.test(url) || url.startsWith('//')) continue;
    files.push(url.replace(/^\.?\//, ''));
  }
  return files;
}

async function measure(file: string): Promise<Measured> {
  const content = await fs.readFile(path.join(OUT_DIR, file));
  return { file, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1);
const sum = (items: Measured[], key: 'raw' | 'gzip') => items.reduce((a, m) => a + m[key], 0);
const isJs = (file: string) => /\.m?js$/.test(file);
/** `assets/index-DJ49fLP4.js` -> `assets/index.js`: the content hash changes with every build. */
const unhashed = (file: string) => file.replace(/-[A-Za-z0-9_-]{8}(?=\.[a-z]+$)/, '');

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join(
    '\n',
  );
}

async function main() {
  if (!options['no-build']) {
    const { build } = await import('vite');
    await build({ configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  }
  const manifest = readManifest(OUT_DIR);
  const html = await fs.readFile(path.join(OUT_DIR, 'index.html'), 'utf8');
  const walked = initialFiles(manifest);
  const extra = referencedByHtml(html).filter((file) => !walked.includes(file));
  const initial = await Promise.all([...walked, ...extra].map(measure));
  const lazy = await Promise.all(lazyFiles(manifest).map(measure));

  const js = initial.filter((m) => isJs(m.file));
  const css = initial.filter((m) => !isJs(m.file));
  const jsGzip = sum(js, 'gzip');
  const met = jsGzip <= JS_BUDGET_BYTES;
  const rows = [
    ['file (content hash removed)', 'raw kB', 'gzip kB'],
    ...[...js, ...css].map((m) => [
      `${unhashed(m.file)}${extra.includes(m.file) ? ' (index.html only)' : ''}`,
      kB(m.raw),
      kB(m.gzip),
    ]),
    ['JavaScript', kB(sum(js, 'raw')), kB(jsGzip)],
    ['CSS', kB(sum(css, 'raw')), kB(sum(css, 'gzip'))],
    ['total', kB(sum(initial, 'raw')), kB(sum(initial, 'gzip'))],
  ];
  const text = [
    `Node ${process.versions.node}; the home page's initial JavaScript and CSS:`,
    '',
    table(rows),
    '',
    `- ${met ? 'met' : 'OVER BUDGET'}: initial JavaScript ${kB(jsGzip)} kB gzip, budget ${kB(JS_BUDGET_BYTES)} kB`,
    `- loaded only when a page needs them: ${lazy.length} more files, ${kB(sum(lazy, 'raw'))} kB raw, ${kB(sum(lazy, 'gzip'))} kB gzip`,
  ].join('\n');
  process.stdout.write(`\n${text}\n`);
  if (options.record) await recordResults('bench:bundle', text);
  if (!met) process.exitCode = 1;
}

await main();
