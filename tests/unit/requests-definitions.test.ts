// What the definitions checker says of a workflow's `requests` (docs/workflows.md, "Requests
// for information"): the actions and catalogues it names must exist, the opening actions lead
// to one status, and the answering ones are taken there.
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { copyDefinitions, readProjectJson, refusalOf } from '../support/definitions-dir';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((f) => f()));
  cleanup = [];
});

const FILE = 'workflows/visa-application.json';

/** The problems loading reports with the visa workflow's `requests` changed. */
async function problemsWith(requests: Record<string, unknown>) {
  const copy = await copyDefinitions();
  cleanup.push(copy.remove);
  const workflow = await readProjectJson<WorkflowDefinition>(FILE);
  await copy.write(FILE, { ...workflow, requests: { ...workflow.requests, ...requests } });
  return refusalOf(copy.dir);
}

describe('the requests of a workflow', () => {
  it('refuses an action the workflow lacks, and a catalogue or a field it lacks', async () => {
    const problems = await problemsWith({
      answer: ['submit-reply', 'answer-back'],
      catalogs: [{ catalog: 'attachment', where: { colour: 'red' } }, { catalog: 'nowhere' }],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: FILE,
          pointer: '/requests/answer/1',
          message: expect.stringContaining('no action "answer-back"') as unknown,
        },
        {
          file: FILE,
          pointer: '/requests/catalogs/0',
          message: 'catalogue "attachment" has no field "colour"',
        },
        expect.objectContaining({ pointer: '/requests/catalogs/1/catalog' }),
      ]),
    );
  });

  it('refuses opening actions leading to two statuses, and answers taken elsewhere', async () => {
    const opening = await problemsWith({ open: ['query', 'verify'] });
    expect(opening).toContainEqual({
      file: FILE,
      pointer: '/requests/open',
      message: expect.stringContaining('lead to several statuses') as unknown,
    });
    const answering = await problemsWith({
      answer: ['submit-reply', 'grant'],
      save: ['submit-reply'],
    });
    expect(answering).toEqual(
      expect.arrayContaining([
        {
          file: FILE,
          pointer: '/requests/answer/1',
          message: expect.stringContaining('action "grant" answers a request round') as unknown,
        },
        {
          file: FILE,
          pointer: '/requests/save/0',
          message: expect.stringContaining('action "submit-reply" saves answers') as unknown,
        },
      ]),
    );
  });
});
