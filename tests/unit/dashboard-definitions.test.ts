import { serverModules } from '../../src/modules/server';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { normalizeFactor } from '../../src/server/dashboard/verification';
import { loadDefinitions, type DefinitionProblem } from '../../src/server/definitions/load';
import { definitionsWithFixtures, refusalOf } from '../support/definitions-dir';

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((f) => f()));
  cleanup = [];
});

const FILE = 'workflows/test-document.json';

/** The fixtures with the test workflow changed by `change`: the problems loading reports. */
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

describe('dashboard declarations of a workflow', () => {
  it('accepts the fixture: statistics and a verification', async () => {
    const definitions = await definitionsWithFixtures();
    cleanup.push(definitions.remove);
    const bundle = await loadDefinitions(definitions.dir, serverModules);
    const workflow = bundle.workflows.find((w) => w.id === 'test-document');
    expect(workflow?.statistics).toBe(true);
    expect(workflow?.verification?.statuses).toEqual(['GRANTED']);
  });

  it('refuses statuses the machine lacks and pointers the schema lacks, naming the place', async () => {
    const problems = await problemsWith((w) => ({
      ...w,
      verification: {
        statuses: ['GRANTED', 'ISSUED'],
        secondFactors: ['/applicant/passportNumber', '/applicant/nickname'],
        validUntil: '/decision/until',
      },
    }));
    expect(problems).toEqual([
      {
        file: FILE,
        pointer: '/verification/statuses/1',
        message: 'no status "ISSUED" in the machine',
      },
      {
        file: FILE,
        pointer: '/verification/secondFactors/1',
        message: '"/applicant/nickname" is not a field of schema "test-document"',
      },
      {
        file: FILE,
        pointer: '/verification/validUntil',
        message: '"/decision/until" is not a field of schema "test-document"',
      },
    ]);
  });

  it('refuses a verification without numbering, and malformed declarations', async () => {
    const unnumbered = await problemsWith(({ numbering: _numbering, ...w }) => w);
    expect(unnumbered).toContainEqual({
      file: FILE,
      pointer: '/verification',
      message: 'verification needs numbering',
    });
    const malformed = await problemsWith((w) => ({
      ...w,
      statistics: 'yes' as unknown as boolean,
      verification: { statuses: [], secondFactors: ['applicant,name'] },
    }));
    expect(malformed.map((p) => p.pointer).sort()).toEqual(
      ['/statistics', '/verification/secondFactors/0', '/verification/statuses'].sort(),
    );
  });
});

describe('normalising a second factor', () => {
  it('ignores case and spaces, and reads dates day first or year first', () => {
    expect(normalizeFactor(' pa 123 4567 ')).toBe(normalizeFactor('PA1234567'));
    expect(normalizeFactor('04/05/1990')).toBe('1990-05-04');
    expect(normalizeFactor('4.5.1990')).toBe('1990-05-04');
    expect(normalizeFactor('04-05-1990')).toBe('1990-05-04');
    expect(normalizeFactor('1990-05-04')).toBe('1990-05-04');
    expect(normalizeFactor('1990-05-04T00:00:00Z')).toBe('1990-05-04');
    expect(normalizeFactor('05/04/1990')).not.toBe('1990-05-04');
  });

  it("refuses an owner's task naming a status or a screen the workflow lacks", async () => {
    const problems = await problemsWith((w) => ({
      ...w,
      tasks: {
        owner: [
          { status: 'QUERIED', open: '/replytoquery/:id' },
          { status: 'ANSWERED', open: '/answer/:id' },
        ],
      },
    }));
    expect(problems).toEqual([
      {
        file: FILE,
        pointer: '/tasks/owner/1/status',
        message: 'no status "ANSWERED" in the machine',
      },
      { file: FILE, pointer: '/tasks/owner/1/open', message: 'no screen "/answer/:id"' },
    ]);
  });
});
