import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * A set of definitions as its files: path relative to the set's root, `/`-separated
 * (`workflows/visa-application.json`) -> the file's text. The checker reads nothing else, so a
 * set read from a folder, kept in a database or edited in a browser is checked by the same code.
 */
export type DefinitionFiles = ReadonlyMap<string, string>;

/** The folders of one definition per file. */
export const DEFINITION_FOLDERS = ['catalogs', 'schemas', 'workflows', 'translations'] as const;
/** The modules' configuration file, beside the folders. */
export const MODULES_FILE = 'modules.json';

/**
 * The definition files under `dir`: modules.json, every `.json` of catalogs/, schemas/ and
 * workflows/, translations/<language>.json and translations/<language>/<namespace>.json. A
 * missing folder or file is left out (the checker says what is missing).
 */
export async function readDefinitionFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const add = async (relative: string) => {
    const text = await fs.readFile(path.join(dir, relative), 'utf8').catch(() => undefined);
    if (text !== undefined) files.set(relative, text);
  };
  const jsonIn = async (relative: string) =>
    (await fs.readdir(path.join(dir, relative)).catch(() => [] as string[]))
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => `${relative}/${name}`);
  await add(MODULES_FILE);
  for (const folder of DEFINITION_FOLDERS) for (const file of await jsonIn(folder)) await add(file);
  const languageFolders = await fs
    .readdir(path.join(dir, 'translations'), { withFileTypes: true })
    .catch(() => []);
  for (const entry of languageFolders.filter((e) => e.isDirectory()))
    for (const file of await jsonIn(`translations/${entry.name}`)) await add(file);
  return files;
}

/** The names of the `.json` files directly in `folder` of the set, sorted. */
export function filesIn(files: DefinitionFiles, folder: string): string[] {
  const prefix = `${folder}/`;
  return [...files.keys()]
    .filter((file) => file.startsWith(prefix) && !file.slice(prefix.length).includes('/'))
    .map((file) => file.slice(prefix.length))
    .filter((name) => name.endsWith('.json'))
    .sort();
}

/**
 * Writes a set's files under `dir` (made when missing), each at its path: a published version
 * exported back to a folder of definitions, which the server and the checker read as they read
 * the repository's. Files already there that the set lacks are left: the folder is the caller's.
 */
export async function writeDefinitionFiles(files: DefinitionFiles, dir: string): Promise<void> {
  for (const [file, text] of files) {
    const target = path.resolve(dir, file);
    if (!target.startsWith(path.resolve(dir) + path.sep))
      throw new Error(`${file} is not a path within the folder`);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, text);
  }
}
