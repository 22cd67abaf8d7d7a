import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openDatabase } from '../../src/server/db/database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite data folder with every migration applied and nothing else (global-setup.ts). */
    pgliteTemplate: string;
  }
}

/**
 * Makes a PGlite data folder the way a first start does (initdb, then the migrations), and
 * closes it. Creating a PGlite cluster costs 2-3 s of CPU, the migrations a few hundred ms;
 * copying the folder made once costs about 0.4 s, and opening a migrated folder skips both.
 */
export async function createPgliteTemplate(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-template-'));
  const database = await openDatabase({ dataDir: dir });
  await database.close();
  return dir;
}

/**
 * Fills an empty data folder with a copy of the run's template, when the run made one (the api
 * and e2e projects' global setup); without one the server makes the folder itself, as before.
 * The server still runs its migrations, key indexes and seeds on the copy at start; only the
 * cluster creation and the already applied migrations are skipped.
 */
export async function copyPgliteTemplate(
  dataDir: string,
  template = providedTemplate(),
): Promise<void> {
  if (!template) return;
  await fs.cp(template, dataDir, {
    recursive: true,
    // A copy-on-write clone where the file system has one, a plain copy elsewhere.
    mode: fs.constants.COPYFILE_FICLONE,
  });
}

function providedTemplate(): string | undefined {
  try {
    return inject('pgliteTemplate');
  } catch {
    // Outside a vitest worker (a script reusing the helpers): no template.
    return undefined;
  }
}
