// What the definitions checker says of a workflow's `screening` (docs/workflows.md, "Screening"):
// every action, catalogue, catalogue field and data pointer it names must exist.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { WorkflowScreening } from '../../src/core/definitions/shapes/screening';
import { definitionsWithFixtures, refusalOf } from '../support/definitions-dir';
import { loadDefinitions } from '../../src/server/definitions/load';
import { serverModules } from '../../src/modules/server';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((f) => f()));
  cleanup = [];
});

const FILE = 'workflows/sample-permit.json';

/** The fixtures' sample workflow screening as given, in a folder of its own. */
async function folderScreening(screening: unknown): Promise<string> {
  const definitions = await definitionsWithFixtures();
  cleanup.push(definitions.remove);
  const file = path.join(definitions.dir, FILE);
  const workflow = JSON.parse(await fs.readFile(file, 'utf8')) as WorkflowDefinition;
  await fs.writeFile(file, JSON.stringify({ ...workflow, screening }));
  return definitions.dir;
}

/** A country-block rule on the sample's nationality, as a valid declaration writes it. */
const valid: WorkflowScreening = {
  on: ['submit'],
  rules: [
    {
      catalog: 'country-block',
      match: [
        { field: 'documentCode', value: 'VIS' },
        { field: 'code', pointer: '/applicant/nationality' },
      ],
      when: ['status'],
    },
  ],
};

describe("a workflow's screening", () => {
  it('is accepted when everything it names exists', async () => {
    await expect(
      loadDefinitions(await folderScreening(valid), serverModules),
    ).resolves.toBeDefined();
  });

  it('refuses an undeclared action, a field the catalogue lacks, a non-flag `when`, a match with both or neither', async () => {
    const rule = valid.rules[0]!;
    const problems = await refusalOf(
      await folderScreening({
        on: ['submit', 'teleport'],
        rules: [
          {
            ...rule,
            match: [
              { field: 'documentCode', value: 'VIS', pointer: '/applicant/nationality' },
              { field: 'nationality', pointer: '/applicant/nationality' },
            ],
            when: ['reason'],
          },
        ],
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: FILE,
          pointer: '/screening/on/1',
          message: 'screening: no action "teleport" in this workflow',
        },
        {
          file: FILE,
          pointer: '/screening/rules/0/match/0',
          message:
            'screening: the match of "documentCode" needs either a pointer or a value, not both',
        },
        {
          file: FILE,
          pointer: '/screening/rules/0/match/1/field',
          message: 'screening: catalogue "country-block" has no field "nationality"',
        },
        {
          file: FILE,
          pointer: '/screening/rules/0/when/0',
          message: 'screening: "reason" of catalogue "country-block" is not a true/false field',
        },
      ]),
    );
    expect(problems).toHaveLength(4);
  });

  it('refuses an unknown catalogue and a pointer that is no field of the schema', async () => {
    const rule = valid.rules[0]!;
    const problems = await refusalOf(
      await folderScreening({
        on: ['submit'],
        rules: [
          { ...rule, catalog: 'no-such-block' },
          { ...rule, match: [{ field: 'code', pointer: '/applicant/citizenship' }] },
        ],
      }),
    );
    expect(problems.map((p) => p.pointer)).toEqual(
      expect.arrayContaining(['/screening/rules/0/catalog', '/screening/rules/1/match/0/pointer']),
    );
    expect(problems).toHaveLength(2);
  });
});
