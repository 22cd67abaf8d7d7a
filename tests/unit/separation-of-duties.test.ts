import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fullRoles, type WorkflowDefinition } from '../../src/core/documents/workflow';
import { serverModules } from '../../src/modules/server';
import type { Principal } from '../../src/server/auth/principal';
import { PROJECT_ROOT } from '../../src/server/config';
import { loadDefinitions } from '../../src/server/definitions/load';
import { allowedActions } from '../../src/server/documents/access';
import type { PlannedWorkflow } from '../../src/server/documents/action-plans';
import { barringAction, dutyActions, requireDuties } from '../../src/server/documents/duties';
import { buildMachine } from '../../src/server/documents/machine';
import { ApiProblem } from '../../src/server/http/api-error';
import { implementationsOf } from '../../src/server/implementations';
import { withoutActions } from '../../src/core/studio/workflow-design';
import { copyDefinitions, refusalOf } from '../support/definitions-dir';

/**
 * Separation of duties (`notBy`, docs/workflows.md), every pair every workflow declares: the
 * pipeline refuses the action to a person whose own earlier actions include the named one (403
 * SEPARATION_OF_DUTIES naming both), and the document's allowed actions leave it out for them in
 * every status the action is otherwise offered in, while offering it to anyone else. The checker
 * refuses a name that is no action of the workflow or a system action.
 */

const OFFICER = 'officer-1';

describe('separation of duties: every declared pair', () => {
  let workflows: PlannedWorkflow[];
  beforeAll(async () => {
    const definitions = await loadDefinitions(PROJECT_ROOT, serverModules);
    const { guards } = implementationsOf(serverModules);
    workflows = definitions.workflows.map((definition) => ({
      definition,
      machine: buildMachine(definition, guards),
      rolesOf: (action) => fullRoles(definition, action.roles),
    }));
  });

  it('is declared by the visa workflow: approve, grant and issue not by the verifier or forwarder', () => {
    const visa = workflows.find((w) => w.definition.id === 'visa-application')!.definition;
    for (const action of ['approve', 'grant', 'issue'])
      expect(visa.actions[action]!.notBy, action).toEqual(['verify', 'forward']);
    expect(dutyActions(visa)).toEqual(['verify', 'forward']);
  });

  it('refuses and hides each barred action, and offers it to someone else', () => {
    let pairs = 0;
    for (const workflow of workflows) {
      const { definition } = workflow;
      const roles = [
        ...new Set(Object.values(definition.actions).flatMap((a) => workflow.rolesOf(a))),
      ];
      const principal: Principal = { subject: OFFICER, roles };
      for (const [name, action] of Object.entries(definition.actions)) {
        for (const earlier of action.notBy ?? []) {
          const where = `${definition.id}: ${name} not by ${earlier}`;
          const taken = new Set([earlier]);
          // The pipeline's refusal, naming the action and the earlier one.
          expect(barringAction(action, taken), where).toBe(earlier);
          let refusal: unknown;
          try {
            requireDuties(name, action, taken);
          } catch (error) {
            refusal = error;
          }
          expect(refusal, where).toBeInstanceOf(ApiProblem);
          expect(refusal, where).toMatchObject({
            status: 403,
            code: 'SEPARATION_OF_DUTIES',
            params: { action: name, earlier },
          });
          // Other actions taken bar nothing.
          const others = new Set(
            Object.keys(definition.actions).filter((a) => !action.notBy!.includes(a)),
          );
          expect(() => requireDuties(name, action, others), where).not.toThrow();
          // Hidden in every status where it is offered to an officer who took nothing.
          let offered = 0;
          for (const status of Object.keys(definition.machine.states as object)) {
            const row = {
              status,
              previous_status: null,
              owner: OFFICER,
              assignee: null,
              number: null,
              data: {},
            };
            if (!allowedActions(workflow, row, principal).includes(name)) continue;
            offered++;
            expect(
              allowedActions(workflow, row, principal, taken),
              `${where} in ${status}`,
            ).not.toContain(name);
            expect(
              allowedActions(workflow, row, principal, others),
              `${where} in ${status}`,
            ).toContain(name);
          }
          expect(offered, `${where}: offered in no status`).toBeGreaterThan(0);
          pairs++;
        }
      }
    }
    expect(pairs).toBeGreaterThanOrEqual(6);
  });
});

describe('separation of duties: the workflow designer', () => {
  it('takes a removed action out of the notBy naming it, and an emptied notBy with it', async () => {
    const definitions = await loadDefinitions(PROJECT_ROOT, serverModules);
    const visa = definitions.workflows.find((w) => w.id === 'visa-application')!;
    expect(withoutActions(visa, ['verify']).actions.approve!.notBy).toEqual(['forward']);
    const neither = withoutActions(visa, ['verify', 'forward']).actions;
    for (const action of ['approve', 'grant', 'issue'])
      expect(neither[action]).not.toHaveProperty('notBy');
    // The declaration itself is left as it was.
    expect(visa.actions.approve!.notBy).toEqual(['verify', 'forward']);
  });
});

describe('separation of duties: the checker', () => {
  let cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.map((remove) => remove()));
    cleanup = [];
  });

  it('refuses a name that is no action, a system action, and notBy on a system action', async () => {
    const copy = await copyDefinitions();
    cleanup.push(copy.remove);
    const file = 'workflows/visa-application.json';
    const absolute = path.join(copy.dir, file);
    const visa = JSON.parse(await fs.readFile(absolute, 'utf8')) as WorkflowDefinition;
    visa.actions.approve!.notBy = ['verify', 'verifiy', 'pay'];
    visa.actions.finalise!.notBy = ['forward'];
    // Naming itself is allowed: a second taking of it is then someone else's.
    visa.actions.escalate!.notBy = ['escalate'];
    await copy.write(file, visa);
    const problems = (await refusalOf(copy.dir)).filter((p) => p.pointer.includes('/notBy'));
    expect(problems).toHaveLength(3);
    expect(problems).toEqual(
      expect.arrayContaining([
        { file, pointer: '/actions/finalise/notBy', message: expect.stringContaining('system') },
        { file, pointer: '/actions/approve/notBy/1', message: 'no action "verifiy"' },
        {
          file,
          pointer: '/actions/approve/notBy/2',
          message: expect.stringContaining('action "pay" is a system action'),
        },
      ]),
    );
  });
});
