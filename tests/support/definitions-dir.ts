import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/server/config';
import { serverModules } from '../../src/modules/server';
import {
  DEFINITION_FOLDERS,
  DefinitionsError,
  loadDefinitions,
  MODULES_FILE,
  type DefinitionProblem,
} from '../../src/server/definitions/load';

/** A copy of the project's definitions in a temporary folder, for tests that change them. */
export async function copyDefinitions(): Promise<{
  dir: string;
  write(file: string, content: unknown): Promise<void>;
  remove(): Promise<void>;
}> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-definitions-'));
  for (const folder of DEFINITION_FOLDERS) {
    await fs.cp(path.join(PROJECT_ROOT, folder), path.join(dir, folder), { recursive: true });
  }
  await fs.copyFile(path.join(PROJECT_ROOT, MODULES_FILE), path.join(dir, MODULES_FILE));
  // The published meta-schemas the files name by `$schema`, as an analyst's folder has them.
  await fs.cp(path.join(PROJECT_ROOT, 'meta'), path.join(dir, 'meta'), { recursive: true });
  return {
    dir,
    write: (file, content) =>
      fs.writeFile(
        path.join(dir, file),
        typeof content === 'string' ? content : JSON.stringify(content, null, 2),
      ),
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

export async function readProjectJson<T>(file: string): Promise<T> {
  return JSON.parse(await fs.readFile(path.join(PROJECT_ROOT, file), 'utf8')) as T;
}

/**
 * The project's definitions plus a fixture folder (tests/fixtures/definitions by default) laid
 * over them, its modules.fixture.json joining the project's modules.
 */
export async function definitionsWithFixtures(folder = 'tests/fixtures/definitions'): Promise<{
  dir: string;
  write(file: string, content: unknown): Promise<void>;
  remove(): Promise<void>;
}> {
  const copy = await copyDefinitions();
  const fixtures = path.join(PROJECT_ROOT, folder);
  await fs.cp(fixtures, copy.dir, { recursive: true });
  // The fixtures' modules join the project's (modules.json is one file, not a folder).
  type Modules = { modules: unknown[] };
  const own = await readProjectJson<Modules>(MODULES_FILE);
  const extra = JSON.parse(
    await fs.readFile(path.join(fixtures, 'modules.fixture.json'), 'utf8'),
  ) as Modules;
  await copy.write(MODULES_FILE, { modules: [...own.modules, ...extra.modules] });
  return copy;
}

/**
 * The problems the server's loader refuses the definitions of `dir` with; fails the test when
 * they are accepted, or refused for another reason than their content.
 */
export async function refusalOf(dir: string): Promise<DefinitionProblem[]> {
  try {
    await loadDefinitions(dir, serverModules);
  } catch (error) {
    if (error instanceof DefinitionsError) return error.problems;
    throw error;
  }
  throw new Error('the definitions were accepted');
}
