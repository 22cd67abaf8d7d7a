import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/definitions/types';
import { copyDefinitions, refusalOf } from '../support/definitions-dir';

/**
 * The checker of case notes and flags (src/server/definitions/check-case-work.ts): a flag
 * without its name in each language, a role nobody of the workflow holds, a list filtering on a
 * flag the workflow does not declare are refused, at their place, where in use they would show
 * a raw key, reach nobody or fail every search.
 */
const VISA = 'workflows/visa-application.json';
const INBOX = 'workflows/inbox-message.json';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((remove) => remove()));
  cleanup = [];
});

async function problemsWith(file: string, change: (workflow: WorkflowDefinition) => void) {
  const copy = await copyDefinitions();
  cleanup.push(copy.remove);
  const absolute = path.join(copy.dir, file);
  const workflow = JSON.parse(await fs.readFile(absolute, 'utf8')) as WorkflowDefinition;
  change(workflow);
  await fs.writeFile(absolute, JSON.stringify(workflow, null, 2));
  return (await refusalOf(copy.dir)).map(({ file, pointer, message }) => ({
    file,
    pointer,
    message,
  }));
}

describe('the checker: case notes and flags', () => {
  it('refuses an untranslated flag, an unknown role, a list filtering an undeclared flag', async () => {
    const problems = await problemsWith(VISA, (workflow) => {
      workflow.caseNotes = { roles: ['forward', 'nobody'] };
      workflow.flags = { ...workflow.flags, urgent: { roles: ['ghost'] } };
      const find = workflow.lists.find((list) => list.id === 'find')!;
      find.flagFilter = ['risk', 'secret'];
    });
    const find = JSON.parse(await fs.readFile(VISA, 'utf8')).lists.findIndex(
      (list: { id: string }) => list.id === 'find',
    ) as number;
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: VISA,
          pointer: '/caseNotes/roles/1',
          message: expect.stringContaining('"visa-application-nobody" is named by no action'),
        },
        {
          file: VISA,
          pointer: '/flags/urgent/roles/0',
          message: expect.stringContaining('"visa-application-ghost"'),
        },
        {
          file: VISA,
          pointer: '/flags/urgent',
          message:
            'the flag "urgent" has no name in en: add the text "visa-application.flags.urgent"',
        },
        {
          file: VISA,
          pointer: '/flags/urgent',
          message: expect.stringContaining('no name in fr'),
        },
        {
          file: VISA,
          pointer: `/lists/${find}/flagFilter/1`,
          message: expect.stringContaining('"secret"'),
        },
      ]),
    );
  });

  it('refuses a flags column in a workflow declaring no flags', async () => {
    const columns = (JSON.parse(await fs.readFile(INBOX, 'utf8')) as WorkflowDefinition).lists[0]!
      .columns.length;
    const problems = await problemsWith(INBOX, (workflow) => {
      workflow.lists[0]!.columns.push({ field: 'flags', label: 'case-work.flags' });
    });
    expect(problems).toEqual([
      {
        file: INBOX,
        pointer: `/lists/0/columns/${columns}/field`,
        message: 'the list shows a flags column but the workflow declares no flags',
      },
    ]);
  });
});
