import fs from 'node:fs';
import path from 'node:path';

/**
 * Vite's build manifest (`build.manifest`, written to `.vite/manifest.json` in the output
 * folder): one record per entry and chunk, keyed by its source (`index.html`, `src/x.tsx`) or,
 * for a chunk with no source of its own, by `_` and its file name.
 */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  /** Keys of the chunks this one imports statically: loaded (modulepreloaded) with it. */
  imports?: string[];
  /** Keys of the chunks this one imports with `import()`: loaded only when asked for. */
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
}

export type ViteManifest = Record<string, ManifestChunk>;

export const MANIFEST_PATH = path.join('.vite', 'manifest.json');

/** Reads the manifest of a build folder (e.g. dist/portal). */
export function readManifest(outDir: string): ViteManifest {
  const file = path.join(outDir, MANIFEST_PATH);
  if (!fs.existsSync(file)) {
    throw new Error(`${file} not found: build with \`build.manifest\` enabled (npm run build)`);
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ViteManifest;
}

/**
 * The JavaScript and CSS files a page loads before any dynamic import: the entry's own file
 * and stylesheets, then those of every chunk it imports statically, recursively (what Vite
 * writes into the built index.html as the entry script, modulepreload links and stylesheet
 * links). Dynamic imports (lazy pages) are not followed. Each file once, the entry first, each
 * chunk before its stylesheets and before the chunks it imports, paths relative to the build
 * folder as in the manifest.
 */
export function initialFiles(manifest: ViteManifest, entry = 'index.html'): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    if (!files.includes(file)) files.push(file);
  };
  const visit = (key: string, from?: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) {
      throw new Error(
        from
          ? `the manifest has no chunk ${key} (imported by ${from})`
          : `the manifest has no entry ${key}`,
      );
    }
    add(chunk.file);
    for (const css of chunk.css ?? []) add(css);
    for (const imported of chunk.imports ?? []) visit(imported, key);
  };
  visit(entry);
  return files;
}

/**
 * The files the chunks reachable from the entry only through dynamic imports add (the lazy
 * pages and what only they use): everything a visit of every page could still fetch.
 */
export function lazyFiles(manifest: ViteManifest, entry = 'index.html'): string[] {
  const initial = new Set(initialFiles(manifest, entry));
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    for (const file of [chunk.file, ...(chunk.css ?? [])]) {
      if (!initial.has(file) && !files.includes(file)) files.push(file);
    }
    for (const imported of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) {
      visit(imported);
    }
  };
  visit(entry);
  return files;
}
