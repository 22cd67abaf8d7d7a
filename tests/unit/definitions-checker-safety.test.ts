import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import type { WorkflowDefinition } from '../../src/core/definitions/types';
import { loadDefinitions, type DefinitionProblem } from '../../src/server/definitions/load';
import { copyDefinitions, refusalOf } from '../support/definitions-dir';

/**
 * What broke the service once it was published, refused by the checker instead, each naming its
 * file, the JSON pointer of the mistake and how to mend it: a name leading nowhere (a catalogue,
 * a catalogue's field, a document type, a schema field), a status no document can reach or
 * leave, two pages on one route. Each case is the project's definitions with one change.
 */

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanup.map((remove) => remove()));
  cleanup = [];
});

type Change<T> = (definition: T) => void;

/** A copy of the definitions with `file` changed in place by `change`. */
async function definitionsWith<T>(file: string, change: Change<T>): Promise<string> {
  const copy = await copyDefinitions();
  cleanup.push(copy.remove);
  const absolute = path.join(copy.dir, file);
  const definition = JSON.parse(await fs.readFile(absolute, 'utf8')) as T;
  change(definition);
  await fs.writeFile(absolute, JSON.stringify(definition, null, 2));
  return copy.dir;
}

/** The problems the loader refuses the changed definitions with. */
async function problemsWith<T>(file: string, change: Change<T>): Promise<DefinitionProblem[]> {
  return refusalOf(await definitionsWith(file, change));
}

/** The warnings of a load the changed definitions pass. */
async function warningsWith<T>(file: string, change: Change<T>): Promise<DefinitionProblem[]> {
  const warnings: DefinitionProblem[] = [];
  await loadDefinitions(await definitionsWith(file, change), serverModules, {
    warn: (warning) => warnings.push(warning),
  });
  return warnings;
}

const SPONSOR = 'workflows/sponsor-application.json';

type States = Record<string, { on?: Record<string, unknown>; type?: 'final' }>;
const statesOf = (workflow: WorkflowDefinition) => workflow.machine.states as States;

describe('the checker: statuses documents reach and leave', () => {
  it('passes the project’s definitions without a problem or a warning', async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const warnings: DefinitionProblem[] = [];
    await loadDefinitions(copy.dir, serverModules, { warn: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
  });

  it('refuses a status no action leads to from NEW', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      statesOf(workflow).QUERIED!.on!['submit-reply'] = 'SUBMITTED FOR VERIFICATION';
    });
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: '/machine/states/REPLIED FOR VERIFICATION',
        message:
          'no action leads to status "REPLIED FOR VERIFICATION" from "NEW", so no document can reach it: add a transition to it in the "on" of a status documents reach, or remove the status',
      },
    ]);
  });

  it('warns only of a status that documents reach through statusMoves alone', async () => {
    const warnings = await warningsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      statesOf(workflow).QUERIED!.on!['submit-reply'] = 'SUBMITTED FOR VERIFICATION';
      workflow.statusMoves = { ANSWERED: 'REPLIED FOR VERIFICATION' };
    });
    expect(warnings).toEqual([
      {
        file: SPONSOR,
        pointer: '/machine/states/REPLIED FOR VERIFICATION',
        message:
          'no action leads to status "REPLIED FOR VERIFICATION" from "NEW": only documents that "statusMoves" moved there reach it, and no new document will',
      },
    ]);
  });

  it('refuses a status that is not final and that no action leaves', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      statesOf(workflow)['SUBMITTED FOR VERIFICATION']!.on = {};
    });
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: '/machine/states/SUBMITTED FOR VERIFICATION',
        message:
          'status "SUBMITTED FOR VERIFICATION" is not final and no action leaves it, so documents reaching it are stuck: give it an action in "on", or mark it "type": "final" if documents end there',
      },
    ]);
  });

  it('refuses a final status with actions', async () => {
    const problems = await problemsWith<WorkflowDefinition>(SPONSOR, (workflow) => {
      statesOf(workflow).REJECTED!.on = { delete: 'DELETED' };
    });
    expect(problems).toEqual([
      {
        file: SPONSOR,
        pointer: '/machine/states/REJECTED/on',
        message:
          'status "REJECTED" is final (documents end there, off every task list), yet it has actions: remove its "on", or its "type": "final"',
      },
    ]);
  });
});
