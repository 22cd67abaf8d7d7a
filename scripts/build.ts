/**
 * Builds what production runs: the portal (Vite, into dist/portal) and the server (esbuild,
 * src/start.ts and src/main.ts into dist/server, started as `node dist/server/main.js`), so
 * production runs plain JavaScript, never a TypeScript loader.
 *
 *   node scripts/build.ts              both, always
 *   node scripts/build.ts --if-stale   each only when its sources changed since its last build
 *   node scripts/build.ts --server     the server only (--portal: the portal only)
 *
 * A build writes a stamp beside its output: the SHA-256 of every source file it is made from
 * (path and content, not times, so a fresh checkout of the same commit is still current). With
 * --if-stale, a build whose stamp matches is skipped, which is what lets `npm start` start in a
 * second when nothing changed. Runs on Node's own type stripping (Node 22.18 and later): no
 * loader is needed to build either.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What one build reads and writes. */
interface Target {
  name: string;
  /** Files and folders (relative to the root) whose content decides the output. */
  sources: string[];
  /** Folders under `sources` whose files do not count. */
  ignored: string[];
  stamp: string;
  build: () => Promise<void>;
}

export const SERVER_ENTRY = path.join(ROOT, 'dist/server/main.js');

/**
 * The server bundle: our code as ES modules, the packages left as imports from node_modules
 * (they stay as their authors ship them, native addons and WebAssembly included). The entry,
 * main.js (from src/start.ts), checks the Node version, turns on Node's compile cache and then imports the rest (split into its own
 * chunk, so it loads after the cache is on). Source maps let `--enable-source-maps` name our
 * files in stack traces.
 */
export async function buildServer(outdir = path.dirname(SERVER_ENTRY)): Promise<void> {
  const { build } = await import('esbuild');
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [{ in: path.join(ROOT, 'src/start.ts'), out: 'main' }],
    outdir,
    splitting: true,
    chunkNames: 'server-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    // The config finds the checkout from its own module's place (src/server -> ../..); the
    // bundle's chunks sit at the same depth (dist/server), so the same rule holds for both.
  });
}

async function buildPortal(): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
}

/** The server build's sources and stamp (the e2e tests run the bundle only when it is current). */
export const SERVER_BUILD: Target = {
  name: 'server',
  sources: ['src', 'package-lock.json', 'tsconfig.json'],
  ignored: ['src/portal'],
  stamp: 'dist/server/.build-stamp',
  build: () => buildServer(),
};

const TARGETS: Target[] = [
  {
    name: 'portal',
    sources: ['src', 'vite.config.ts', 'scripts/vite-manifest.ts', 'package-lock.json'],
    ignored: ['src/server'],
    stamp: 'dist/portal/.build-stamp',
    build: buildPortal,
  },
  SERVER_BUILD,
];

function* filesUnder(relative: string, ignored: readonly string[]): Generator<string> {
  if (ignored.includes(relative)) return;
  const absolute = path.join(ROOT, relative);
  if (!fs.existsSync(absolute)) return;
  if (!fs.statSync(absolute).isDirectory()) {
    yield relative;
    return;
  }
  const entries = fs.readdirSync(absolute, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) yield* filesUnder(path.posix.join(relative, entry.name), ignored);
}

/** The SHA-256 of a target's sources: every file's path and content, in a fixed order. */
export function sourceDigest(sources: readonly string[], ignored: readonly string[]): string {
  const hash = createHash('sha256');
  for (const source of sources) {
    for (const file of filesUnder(source, ignored)) {
      hash.update(`${file}\0`);
      hash.update(fs.readFileSync(path.join(ROOT, file)));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

function readStamp(target: Target): string | undefined {
  try {
    return fs.readFileSync(path.join(ROOT, target.stamp), 'utf8').trim();
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'if-stale': { type: 'boolean', default: false },
      server: { type: 'boolean', default: false },
      portal: { type: 'boolean', default: false },
    },
  });
  const only = values.server || values.portal;
  const chosen = TARGETS.filter((t) => !only || values[t.name as 'server' | 'portal']);
  for (const target of chosen) {
    const digest = sourceDigest(target.sources, target.ignored);
    if (values['if-stale'] && readStamp(target) === digest) {
      process.stdout.write(`${target.name}: current, not rebuilt\n`);
      continue;
    }
    const started = Date.now();
    await target.build();
    fs.mkdirSync(path.dirname(path.join(ROOT, target.stamp)), { recursive: true });
    fs.writeFileSync(path.join(ROOT, target.stamp), `${digest}\n`);
    process.stdout.write(`${target.name}: built in ${Date.now() - started} ms\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
    process.exit(1);
  });
}
