// What the definitions checker says of the workflow keywords that shape the document screens and
// lists (issue 37, points 12 to 14): the sections a screen opens on, the actions whose notes it
// shows, a list's title away from the menu, and values copied within a document.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { serverModules } from '../../src/modules/server';
import { loadDefinitions, type DefinitionProblem } from '../../src/server/definitions/load';
import { definitionsWithFixtures, refusalOf } from '../support/definitions-dir';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((f) => f()));
  cleanup = [];
});

const FILE = 'workflows/sample-permit.json';

/** The fixtures with the sample workflow changed by `change`, in a folder of their own. */
async function folderWith(
  change: (workflow: WorkflowDefinition) => WorkflowDefinition,
): Promise<string> {
  const definitions = await definitionsWithFixtures();
  cleanup.push(definitions.remove);
  const file = path.join(definitions.dir, FILE);
  const workflow = JSON.parse(await fs.readFile(file, 'utf8')) as WorkflowDefinition;
  await fs.writeFile(file, JSON.stringify(change(workflow)));
  return definitions.dir;
}

/** The problems loading reports with the sample workflow changed by `change`. */
async function problemsWith(
  change: (workflow: WorkflowDefinition) => WorkflowDefinition,
): Promise<DefinitionProblem[]> {
  return refusalOf(await folderWith(change));
}

/** The sample workflow with its screen at `path` changed. */
const withScreen =
  (screenPath: string, change: Record<string, unknown>) =>
  (w: WorkflowDefinition): WorkflowDefinition => ({
    ...w,
    screens: w.screens.map((s) => (s.path === screenPath ? { ...s, ...change } : s)),
  });

describe('the screen keywords of a workflow', () => {
  it('refuses a screen opening on a section the entity does not have, alone or in a list', async () => {
    const problems = await problemsWith((w) =>
      withScreen('/edit/:id', { open: ['dependants', 'identity'] })(
        withScreen('/view/:id', { open: 'identity' })(w),
      ),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        { file: FILE, pointer: '/screens/1/open/1', message: 'no section "identity"' },
        { file: FILE, pointer: '/screens/2/open', message: 'no section "identity"' },
      ]),
    );
    expect(problems).toHaveLength(2);
  });

  it('refuses notes shown of an action the workflow lacks or of one that takes no notes', async () => {
    const problems = await problemsWith(
      withScreen('/view/:id', { showNotesOf: ['query', 'submit'] }),
    );
    expect(problems).toEqual([
      { file: FILE, pointer: '/screens/2/showNotesOf/0', message: 'no action "query"' },
      {
        file: FILE,
        pointer: '/screens/2/showNotesOf/1',
        message: 'action "submit" takes no notes',
      },
    ]);
  });

  it('refuses a list title with no text in either language', async () => {
    const problems = await problemsWith((w) => ({
      ...w,
      lists: w.lists.map((list) => ({ ...list, title: 'sample-permit.lists.nowhere' })),
    }));
    expect(problems.map((p) => p.pointer)).toEqual(['/lists/0/title', '/lists/0/title']);
    expect(problems[0]?.message).toContain('sample-permit.lists.nowhere');
  });

  it('refuses a list title kept among the texts only its own pages receive', async () => {
    // The dashboard lists every list, and has only a document's navigation texts (its lists').
    const problems = await problemsWith((w) => ({
      ...w,
      lists: w.lists.map((list) => ({ ...list, title: 'sample-permit.applicant.familyName' })),
    }));
    expect(problems).toEqual([
      {
        file: FILE,
        pointer: '/lists/0/title',
        message:
          '"sample-permit.applicant.familyName" is not among the texts pages of other modules receive: put it under "sample-permit.lists"',
      },
    ]);
  });
});

describe('copies within a document', () => {
  /** The sample workflow copying `copies` on its update, or on no action when `applied` is false. */
  const copying =
    (copies: Record<string, string> | undefined, applied = true) =>
    (w: WorkflowDefinition): WorkflowDefinition => ({
      ...w,
      ...(copies && { copies }),
      actions: {
        ...w.actions,
        update: { ...w.actions.update!, ...(applied && { before: ['copyValues'] }) },
      },
    });

  it('accepts a copy between two text fields, applied by an action', async () => {
    const dir = await folderWith(copying({ '/applicant/nationality': '/applicant/familyName' }));
    const bundle = await loadDefinitions(dir, serverModules);
    const sample = bundle.workflows.find((w) => w.id === 'sample-permit');
    expect(sample?.copies).toEqual({ '/applicant/nationality': '/applicant/familyName' });
  });

  it('refuses the effect without copies, and copies no action applies', async () => {
    expect(await problemsWith(copying(undefined))).toEqual([
      {
        file: FILE,
        pointer: '/actions/update/before/0',
        message: '"copyValues" needs the workflow\'s `copies`',
      },
    ]);
    expect(
      await problemsWith(copying({ '/applicant/nationality': '/applicant/familyName' }, false)),
    ).toEqual([
      {
        file: FILE,
        pointer: '/copies',
        message: 'no action applies the copies: name "copyValues" in an action\'s `before`',
      },
    ]);
  });

  it('refuses a copy onto itself, between kinds of value, or naming no field', async () => {
    const problems = await problemsWith(
      copying({
        '/applicant/familyName': '/applicant/familyName',
        '/applicant/nationality': '/documents/passport/size',
        '/applicant/nickname': '/applicant/familyName',
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: FILE,
          pointer: '/copies/~1applicant~1familyName',
          message: '"/applicant/familyName" is copied onto itself',
        },
        {
          file: FILE,
          pointer: '/copies/~1applicant~1nationality',
          message:
            '"/documents/passport/size" holds a number and "/applicant/nationality" a text: a copy needs one kind',
        },
      ]),
    );
    expect(problems.some((p) => p.message.includes('/applicant/nickname'))).toBe(true);
  });
});
