import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  statelyMachine,
  statelyModule,
  workflowFromStately,
  type StatelyMachineConfig,
  type StatelyWorkflowImport,
} from '../../src/core/definitions/stately';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { readProjectJson } from '../support/definitions-dir';

/**
 * The workflow taken to Stately's editor and back: not only the machine, but the actions its
 * transitions name, with the roles in their `meta`. A transition drawn in the editor becomes an
 * action; one removed there takes its action with it; what was exported comes back unchanged.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
let workflows: WorkflowDefinition[];
let visa: WorkflowDefinition;

beforeAll(async () => {
  const files = (await fs.readdir(path.join(ROOT, 'workflows'))).filter((f) => f.endsWith('.json'));
  workflows = await Promise.all(
    files.map((file) => readProjectJson<WorkflowDefinition>(`workflows/${file}`)),
  );
  visa = await readProjectJson<WorkflowDefinition>('workflows/visa-application.json');
});

const imported = (workflow: WorkflowDefinition, text: string): StatelyWorkflowImport => {
  const result = workflowFromStately(workflow, text);
  if ('error' in result) throw new Error(result.error);
  return result;
};
const errorOf = (workflow: WorkflowDefinition, text: string): string => {
  const result = workflowFromStately(workflow, text);
  if (!('error' in result)) throw new Error('the machine was accepted');
  return result.error;
};

/** The machine as Stately's editor would save it after the analyst's changes. */
const edited = (change: (config: StatelyMachineConfig) => void) => {
  const config = statelyMachine(visa);
  change(config);
  return `import { createMachine } from "xstate";\nexport const machine = createMachine(${JSON.stringify(config)});`;
};

describe('the round trip', () => {
  it('gives back every workflow exactly as it was exported', () => {
    for (const workflow of workflows) {
      const result = imported(workflow, statelyModule(workflow));
      expect(result.workflow, workflow.id).toEqual(workflow);
      expect(result.added).toEqual([]);
      expect(result.removed).toEqual([]);
    }
  });
});

describe('a transition added in the editor', () => {
  it('becomes an action with the roles of its meta, and its texts', () => {
    const text = edited((config) => {
      config.states['LEGAL REVIEW'] = {
        on: { escalate: { target: 'ESCALATED', meta: { roles: ['visa-application-escalate'] } } },
      };
      config.states.FORWARDED!.on!['legal-review'] = {
        target: 'LEGAL REVIEW',
        meta: {
          roles: ['visa-application-escalate', 'visa-application-issue'],
          labels: { en: 'Send to legal review', fr: 'Envoyer en examen juridique' },
        } as StatelyMachineConfig['states'][string]['meta'] & { roles: string[] },
      };
    });
    const result = imported(visa, text);
    expect(result.added).toEqual(['legal-review']);
    expect(result.workflow.actions['legal-review']).toEqual({ roles: ['escalate', 'issue'] });
    expect(result.labels).toEqual({
      'legal-review': { en: 'Send to legal review', fr: 'Envoyer en examen juridique' },
    });
    expect(result.workflow.machine.states['LEGAL REVIEW']).toEqual({
      on: { escalate: 'ESCALATED' },
    });
    // The declared action it reuses keeps everything it had.
    expect(result.workflow.actions.escalate).toEqual(visa.actions.escalate);
  });

  it('changes the roles of a declared action when its transitions name others', () => {
    const text = edited((config) => {
      const escalate = config.states.FORWARDED!.on!.escalate as { meta: { roles: string[] } };
      escalate.meta.roles = ['visa-application-escalate', 'visa-application-approve'];
    });
    expect(imported(visa, text).workflow.actions.escalate).toEqual({
      ...visa.actions.escalate,
      roles: ['escalate', 'approve'],
    });
  });

  it('is refused without roles, or with a role of another workflow, naming the transition', () => {
    expect(
      errorOf(
        visa,
        edited((config) => {
          config.states.FORWARDED!.on!['legal-review'] = {
            target: 'ESCALATED',
            meta: { roles: [] },
          };
        }),
      ),
    ).toContain('The action "legal-review" is new: give its transitions the roles');
    expect(
      errorOf(
        visa,
        edited((config) => {
          config.states.FORWARDED!.on!['legal-review'] = {
            target: 'ESCALATED',
            meta: { roles: ['sponsor-application-grant'] },
          };
        }),
      ),
    ).toBe(
      'The action "legal-review" of state "FORWARDED" names the role "sponsor-application-grant": this workflow\'s roles start with "visa-application-".',
    );
  });
});

describe('a transition removed in the editor', () => {
  it('removes the action no status names any more, and the screens stop offering it', () => {
    const text = edited((config) => {
      delete config.states.FORWARDED!.on!.escalate;
    });
    const result = imported(visa, text);
    expect(result.removed).toEqual(['escalate']);
    expect(result.workflow.actions.escalate).toBeUndefined();
    expect(result.workflow.machine.states.FORWARDED).not.toHaveProperty('on.escalate');
    const validation = result.workflow.screens.find((s) => s.path === '/validation/:id');
    expect(validation?.actions).toEqual(['issue', 'backward']);
    // A screen role allowing none of its actions any more goes (the checker refuses it).
    expect(validation?.roles).toEqual(['issue', 'backward']);
  });

  it('keeps an action still named from another status', () => {
    const text = edited((config) => {
      delete config.states.FORWARDED!.on!.issue;
    });
    const result = imported(visa, text);
    expect(result.removed).toEqual([]);
    expect(result.workflow.actions.issue).toEqual(visa.actions.issue);
  });
});
