import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/definitions/types';
import { PROJECT_ROOT } from '../../src/server/config';
import { copyDefinitions } from '../support/definitions-dir';
import { runNode } from '../support/run-node';

/**
 * `npm run check:definitions` on an analyst's own folder (`DEFINITIONS_DIR`): a folder holding
 * only definitions, with no src/generated/ or docs/ beside it, passes when its definitions are
 * right, names file and pointer when they are not, and writes nothing anywhere.
 */

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((remove) => remove()));
  cleanup = [];
});

function checkDefinitions(dir: string) {
  return runNode(['--import', 'tsx', 'scripts/check-definitions.ts'], { DEFINITIONS_DIR: dir });
}

/** Every file under `dir` with a hash of its content: what a run may not change. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries.filter((e) => e.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = createHash('sha256')
      .update(await fs.readFile(file))
      .digest('hex');
  }
  return files;
}

const file = 'workflows/sponsor-application.json';

/** A copy of the definitions whose sponsor workflow `change` changed: its folder. */
async function withSponsorWorkflow(change: (workflow: WorkflowDefinition) => void) {
  const copy = await copyDefinitions();
  cleanup.push(copy.remove);
  const workflow = JSON.parse(
    await fs.readFile(path.join(copy.dir, file), 'utf8'),
  ) as WorkflowDefinition;
  change(workflow);
  await copy.write(file, workflow);
  return copy.dir;
}

describe('npm run check:definitions on a separate folder', () => {
  it('passes on a folder of definitions alone, writing nothing there or in the project', async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const before = await snapshot(copy.dir);
    const generated = await snapshot(path.join(PROJECT_ROOT, 'src/generated'));
    const { code, out } = await checkDefinitions(copy.dir);
    expect(out).toMatch(/^Definitions OK: 33 catalogues, 9 schemas, 9 workflows$/m);
    expect(code).toBe(0);
    expect(await snapshot(copy.dir)).toEqual(before);
    expect(await snapshot(path.join(PROJECT_ROOT, 'src/generated'))).toEqual(generated);
  });

  it('fails on a mistake, naming the file, the pointer and what is wrong', async () => {
    const dir = await withSponsorWorkflow((workflow) => {
      workflow.seeAll[0] = 'serch';
    });
    const { code, out } = await checkDefinitions(dir);
    expect(out).toContain(
      `${file}#/seeAll/0: role "serch" is in no action, list or screen of the workflow`,
    );
    expect(code).toBe(1);
  });

  it('warns of a role nobody holds, and still passes', async () => {
    let view = -1;
    const dir = await withSponsorWorkflow((workflow) => {
      view = workflow.screens.findIndex((screen) => screen.mode === 'view');
      workflow.screens[view]!.roles = ['reader'];
    });
    const { code, out } = await checkDefinitions(dir);
    expect(out).toContain(
      `warning: ${file}#/screens/${view}/roles/0: no access unit grants the role "sponsor-application-reader": nobody holds it`,
    );
    expect(code).toBe(0);
  });
});
