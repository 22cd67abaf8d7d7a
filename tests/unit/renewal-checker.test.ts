import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/definitions/types';
import { copyDefinitions, refusalOf } from '../support/definitions-dir';

/**
 * The checker of `renewal` and `referencedBy` (src/server/definitions/check-renewals.ts): a
 * renewal started by an action that creates nothing, linked through a field its owner edits,
 * firing an action a person takes; a referring field, column or flag the referring type lacks:
 * each refused at its place, where in use it would renew the wrong document, move nothing or
 * flag nothing.
 */
const SPONSOR = 'workflows/sponsor-application.json';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((remove) => remove()));
  cleanup = [];
});

async function problemsWith(change: (workflow: WorkflowDefinition) => void) {
  const copy = await copyDefinitions();
  cleanup.push(copy.remove);
  const absolute = path.join(copy.dir, SPONSOR);
  const workflow = JSON.parse(await fs.readFile(absolute, 'utf8')) as WorkflowDefinition;
  change(workflow);
  await fs.writeFile(absolute, JSON.stringify(workflow, null, 2));
  return (await refusalOf(copy.dir)).map(({ file, pointer, message }) => ({
    file,
    pointer,
    message,
  }));
}

describe('the checker: renewals and documents naming a document', () => {
  it('refuses a renewal and a referencedBy naming what cannot work', async () => {
    const problems = await problemsWith((workflow) => {
      workflow.renewal = {
        ...workflow.renewal!,
        start: 'submit',
        link: '/contact/email',
        fires: { grant: 'modify' },
      };
      const visas = workflow.referencedBy!.visas!;
      visas.pointer = '/sponsorship/nothing';
      visas.columns = [{ label: 'documents.number' }];
      visas.flag = { name: 'unknownFlag', statuses: ['GRANTED'] };
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        { file: SPONSOR, pointer: '/renewal/start', message: expect.stringContaining('"submit"') },
        { file: SPONSOR, pointer: '/renewal/link', message: expect.stringContaining('"contact"') },
        {
          file: SPONSOR,
          pointer: '/renewal/fires/grant',
          message: expect.stringContaining('must be a system action'),
        },
        {
          file: SPONSOR,
          pointer: '/referencedBy/visas/pointer',
          message: expect.stringContaining('/sponsorship/nothing'),
        },
        {
          file: SPONSOR,
          pointer: '/referencedBy/visas/columns/0',
          message: expect.stringContaining('either a "field"'),
        },
        {
          file: SPONSOR,
          pointer: '/referencedBy/visas/flag/name',
          message: expect.stringContaining('"unknownFlag"'),
        },
      ]),
    );
  });

  it('refuses flagReferring and extendValidity where they would do nothing', async () => {
    const problems = await problemsWith((workflow) => {
      delete workflow.referencedBy;
      delete workflow.renewal;
    });
    const pointers = problems.map((p) => p.pointer);
    expect(pointers).toContain('/actions/suspend/effects/1');
    expect(pointers).toContain('/actions/extend/effects/0');
  });
});
