import fs from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { createPgliteTemplate } from './pglite-template';

/** The run's template, shared by the projects naming this setup (each loads it on its own). */
const SHARED = Symbol.for('portal.pgliteTemplate');
type Holder = { [SHARED]?: Promise<string> };

/**
 * Once per run: a migrated PGlite data folder, which every embedded database the api and e2e
 * tests start begins as a copy of (copyPgliteTemplate), instead of each creating a cluster.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as Holder;
  const owner = holder[SHARED] === undefined;
  if (owner) holder[SHARED] = createPgliteTemplate();
  const template = await holder[SHARED]!;
  project.provide('pgliteTemplate', template);
  return async () => {
    // Teardowns run when every project is done, so the maker removes the folder.
    if (owner) await fs.rm(template, { recursive: true, force: true });
  };
}
