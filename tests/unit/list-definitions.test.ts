import { serverModules } from '../../src/modules/server';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { loadDefinitions, type DefinitionProblem } from '../../src/server/definitions/load';
import { definitionsWithFixtures, refusalOf } from '../support/definitions-dir';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((f) => f()));
  cleanup = [];
});

const FILE = 'workflows/sample-permit.json';

/** The fixtures with the sample workflow changed by `change`: the problems loading reports. */
async function problemsWith(
  change: (workflow: WorkflowDefinition) => WorkflowDefinition,
): Promise<DefinitionProblem[]> {
  const definitions = await definitionsWithFixtures();
  cleanup.push(definitions.remove);
  const file = path.join(definitions.dir, FILE);
  const workflow = JSON.parse(await fs.readFile(file, 'utf8')) as WorkflowDefinition;
  await fs.writeFile(file, JSON.stringify(change(workflow)));
  return refusalOf(definitions.dir);
}

/** The workflow with the label of its first list's column `index` replaced. */
const withColumnLabel =
  (index: number, label: string) =>
  (w: WorkflowDefinition): WorkflowDefinition => ({
    ...w,
    lists: w.lists.map((list, i) =>
      i === 0
        ? {
            ...list,
            columns: list.columns.map((c, j) => (j === index ? { ...c, label } : c)),
          }
        : list,
    ),
  });

describe('labels of a list', () => {
  it('accepts the project definitions: every list header names a text', async () => {
    const definitions = await definitionsWithFixtures();
    cleanup.push(definitions.remove);
    const bundle = await loadDefinitions(definitions.dir, serverModules);
    const visa = bundle.workflows.find((w) => w.id === 'visa-application');
    expect(visa?.lists[0]?.columns.map((c) => c.label)).toContain(
      'visa-application.applicant.familyName._',
    );
  });

  it('refuses a column label naming a nested text object, and says which key to use', async () => {
    // sample-permit.applicant.birthDate is {"_": "Date of birth", "help": ...} in the fixtures.
    const problems = await problemsWith(withColumnLabel(1, 'sample-permit.applicant.birthDate'));
    expect(problems).toEqual(
      ['en', 'fr'].map((language) => ({
        file: FILE,
        pointer: '/lists/0/columns/1/label',
        message: `"sample-permit.applicant.birthDate" names a group of texts in ${language}, not a text: use "sample-permit.applicant.birthDate._"`,
      })),
    );
  });

  it('refuses a column label or a list heading with no text', async () => {
    const problems = await problemsWith((w) => {
      const changed = withColumnLabel(0, 'documents.nothingHere')(w);
      return {
        ...changed,
        lists: changed.lists.map((l, i) =>
          i === 0 ? { ...l, label: 'sample-permit.lists.missing' } : l,
        ),
      };
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: FILE,
          pointer: '/lists/0/label',
          message: 'no text "sample-permit.lists.missing" in en',
        },
        {
          file: FILE,
          pointer: '/lists/0/columns/0/label',
          message: 'no text "documents.nothingHere" in fr',
        },
      ]),
    );
  });
});
