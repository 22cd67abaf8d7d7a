import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

/**
 * Generated validator modules kept on disk between starts (validators.ts): compiling them is
 * the largest part of a start, and their source depends only on what the key covers. One folder
 * per key, holding one file per module and a manifest naming them; a folder appears whole or not
 * at all (written aside, then renamed), so a process never reads half of one.
 */

/** Module name (`schema/visa-application`, `section/visa-application/applicant`...) -> source. */
export type ModuleSources = ReadonlyMap<string, string>;

/** A folder read back: the sources, and the file of each, for `import()`. */
export interface CachedModules {
  sources: Map<string, string>;
  files: Map<string, string>;
}

const MANIFEST = 'modules.json';
/** Folders kept for other keys (other definitions folders, an earlier version being replaced). */
const KEPT_KEYS = 8;

/** The key of what generated modules depend on: a SHA-256 of `parts` as JSON. */
export function cacheKey(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** The modules kept for `key`, or undefined when there are none or they cannot be read. */
export async function readCachedModules(
  dir: string,
  key: string,
): Promise<CachedModules | undefined> {
  const folder = path.join(dir, key);
  try {
    const text = await fs.readFile(path.join(folder, MANIFEST), 'utf8');
    const manifest = JSON.parse(text) as Record<string, string>;
    const sources = new Map<string, string>();
    const files = new Map<string, string>();
    await Promise.all(
      Object.entries(manifest).map(async ([name, file]) => {
        const at = path.join(folder, path.basename(file));
        sources.set(name, await fs.readFile(at, 'utf8'));
        files.set(name, at);
      }),
    );
    return { sources, files };
  } catch {
    return undefined;
  }
}

/** Imports a kept module (an ES module file), by its name. */
export async function importCachedModule(
  cached: CachedModules,
  name: string,
): Promise<Record<string, unknown>> {
  const file = cached.files.get(name);
  const source = cached.sources.get(name);
  if (!file || source === undefined) throw new Error(`No kept module ${name}`);
  // Addressed by its content, as read: what runs here is what the browser is sent.
  const version = createHash('sha256').update(source).digest('hex').slice(0, 16);
  return (await import(`${pathToFileURL(file).href}?${version}`)) as Record<string, unknown>;
}

/**
 * Keeps `sources` under `key`, and drops the oldest folders of other keys beyond KEPT_KEYS.
 * Two processes writing the same key at once: the first rename wins, the other's copy is removed.
 */
export async function writeCachedModules(
  dir: string,
  key: string,
  sources: ModuleSources,
): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const aside = path.join(dir, `.${key}-${randomUUID()}`);
  await fs.mkdir(aside);
  try {
    const manifest: Record<string, string> = {};
    let index = 0;
    for (const [name, source] of sources) {
      const file = `m${index++}.mjs`;
      manifest[name] = file;
      await fs.writeFile(path.join(aside, file), source);
    }
    await fs.writeFile(path.join(aside, MANIFEST), JSON.stringify(manifest));
    const target = path.join(dir, key);
    await fs.rename(aside, target).catch(async () => {
      // The folder is there: another process kept the same modules first, or it is damaged
      // (a file missing or changed), and this copy replaces it.
      const kept = await readCachedModules(dir, key);
      if (isDeepStrictEqual(kept?.sources, sources)) return;
      await fs.rm(target, { recursive: true, force: true });
      await fs.rename(aside, target);
    });
  } finally {
    await fs.rm(aside, { recursive: true, force: true });
  }
  await dropOldKeys(dir, key);
}

/** A folder being written for an hour is one a stopped process left. */
const ABANDONED_MS = 60 * 60 * 1000;

async function dropOldKeys(dir: string, current: string): Promise<void> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const folders = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory() && entry.name !== current)
      .map(async (entry) => ({
        folder: path.join(dir, entry.name),
        aside: entry.name.startsWith('.'),
        modified: (await fs.stat(path.join(dir, entry.name))).mtimeMs,
      })),
  );
  const kept = folders.filter((f) => !f.aside).sort((a, b) => b.modified - a.modified);
  const abandoned = folders.filter((f) => f.aside && Date.now() - f.modified > ABANDONED_MS);
  for (const { folder } of [...kept.slice(KEPT_KEYS - 1), ...abandoned])
    await fs.rm(folder, { recursive: true, force: true });
}
