import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/definitions/types';
import type { DefinitionProblem } from '../../src/server/definitions/load';
import { copyDefinitions, refusalOf } from '../support/definitions-dir';

/**
 * Assignment by workload as the checker reads it (check-workload.ts, check-routes.ts): a
 * reassignment's reason only on an action that assigns; a team view counting for such an
 * action, in statuses of the machine, on a route of its own.
 */
const VISA = 'workflows/visa-application.json';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((remove) => remove()));
  cleanup = [];
});

async function problemsWith(
  change: (workflow: WorkflowDefinition) => void,
): Promise<DefinitionProblem[]> {
  const copy = await copyDefinitions();
  cleanup.push(copy.remove);
  const file = path.join(copy.dir, VISA);
  const workflow = JSON.parse(await fs.readFile(file, 'utf8')) as WorkflowDefinition;
  change(workflow);
  await fs.writeFile(file, JSON.stringify(workflow, null, 2));
  return refusalOf(copy.dir);
}

describe('the checker: assignment by workload', () => {
  it('refuses a reason to reassign on an action that assigns nobody', async () => {
    expect(
      await problemsWith((workflow) => {
        workflow.actions.query!.reassignReason = true;
      }),
    ).toEqual([
      {
        file: VISA,
        pointer: '/actions/query/reassignReason',
        message: 'reassignReason is for an action whose payload is "assignee"',
      },
    ]);
  });

  it('refuses a team view for an action that assigns nobody, or counting a status the machine lacks', async () => {
    const problems = await problemsWith((workflow) => {
      workflow.workload = { action: 'query', path: '/workload', statuses: ['VERIFIED', 'PENDING'] };
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: VISA,
          pointer: '/workload/action',
          message:
            'the team view counts for an action that assigns: "query" is no action of this workflow with payload "assignee"',
        },
        {
          file: VISA,
          pointer: '/workload/statuses/1',
          message: 'the team view counts the status "PENDING", which the machine does not have',
        },
      ]),
    );
    expect(problems).toHaveLength(2);
  });

  it("refuses a team view on a list's route", async () => {
    const problems = await problemsWith((workflow) => {
      workflow.workload!.path = '/assigned';
    });
    expect(problems).toEqual([expect.objectContaining({ file: VISA, pointer: '/workload/path' })]);
  });
});
