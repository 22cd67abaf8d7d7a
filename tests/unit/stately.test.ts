import fs from 'node:fs/promises';
import path from 'node:path';
import { createMachine } from 'xstate';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  machineFromStately,
  machineTransitions,
  statelyMachine,
  statelyModule,
} from '../../src/core/definitions/stately';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { readProjectJson } from '../support/definitions-dir';

/**
 * A workflow's machine taken to Stately's editor and back: the module the editor imports, the
 * machine read from it (or from its JSON, or from what the editor writes), and what is said of
 * a text that is not a machine a workflow can have.
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

const errorOf = (text: string): string => {
  const result = machineFromStately(text);
  if (!('error' in result)) throw new Error(`read a machine from ${text}`);
  return result.error;
};

describe('export to Stately', () => {
  it('writes the module the editor imports: createMachine called with the config as JSON', () => {
    const text = statelyModule(visa);
    expect(
      text.startsWith(
        'import { createMachine } from \'xstate\';\n\nexport const machine = createMachine({\n  "id": "visa-application",',
      ),
    ).toBe(true);
    expect(text.endsWith('});\n')).toBe(true);
    const json = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    expect(JSON.parse(json)).toEqual(statelyMachine(visa));
  });

  it('keeps targets and guards, and gives each transition the full roles of its action', () => {
    const { states } = statelyMachine(visa);
    expect(states.NEW?.on?.store).toEqual({
      target: 'STORED',
      meta: { roles: ['visa-application-submit'] },
    });
    expect(states.STORED?.on?.submit).toEqual([
      {
        target: 'SUBMITTED',
        guard: { type: 'amountDue', params: { pointer: '/fees/total' } },
        meta: { roles: ['visa-application-submit'] },
      },
      { target: 'SUBMITTED FOR VERIFICATION', meta: { roles: ['visa-application-submit'] } },
    ]);
    // The gateway's confirmation: no user takes it.
    expect(states['PURCHASE INITIATED']?.on?.pay).toMatchObject({
      target: 'PAID FOR VERIFICATION',
      description: 'Fired by the server only.',
      meta: { system: true },
    });
    expect(states.DISPATCHED).toEqual({ type: 'final' });
  });

  it('is a machine XState itself builds, for every workflow', () => {
    for (const workflow of workflows) {
      const config = statelyMachine(workflow);
      const machine = createMachine(config as Parameters<typeof createMachine>[0]);
      expect(Object.keys(machine.states), workflow.id).toEqual(
        Object.keys(workflow.machine.states),
      );
    }
  });

  it('keeps a state’s usual days', async () => {
    const invoice = await readProjectJson<WorkflowDefinition>('workflows/payment-invoice.json');
    const days = Object.values(statelyMachine(invoice).states).map((s) => s.meta?.estimatedDays);
    expect(days.filter((d) => d !== undefined).length).toBeGreaterThan(0);
  });
});

describe('round trip', () => {
  it('gives back the same machine for every workflow, from the module and from its JSON', () => {
    expect(workflows.length).toBeGreaterThan(5);
    for (const workflow of workflows) {
      expect(machineFromStately(statelyModule(workflow)), workflow.id).toEqual({
        machine: workflow.machine,
      });
      expect(machineFromStately(JSON.stringify(statelyMachine(workflow))), workflow.id).toEqual({
        machine: workflow.machine,
      });
      expect(machineFromStately(JSON.stringify(workflow.machine)), workflow.id).toEqual({
        machine: workflow.machine,
      });
    }
  });

  it('lists the same transitions before and after', () => {
    const back = machineFromStately(statelyModule(visa));
    expect('machine' in back && machineTransitions(back.machine)).toEqual(
      machineTransitions(visa.machine),
    );
  });
});

describe('import from Stately', () => {
  it('reads the module as the editor writes it: unquoted keys, comments, types, ids', () => {
    const text = `import { createMachine } from "xstate";

export const machine = createMachine(
  /** @xstate-layout N4IgpgJg5mDOIC5QAoC2BDAxgCwJYDswBKAOgFcA7ASwBc */
  {
    id: 'permit',
    initial: "NEW",
    context: {},
    types: {} as { events: { type: "store" } | { type: 'drop' }; context: {} },
    states: {
      NEW: {
        on: {
          store: { target: "#permit.STORED", actions: [] },
          drop: [{ target: 'DONE', guard: 'isPaid', }, { target: "STORED" }],
        },
      },
      STORED: {
        description: 'Kept as a \\'draft\\'',
        meta: { estimatedDays: 2, colour: 'red' },
        on: {
          update: { target: 'STORED', meta: { roles: ['permit-update'] }, description: 'Saves' },
          submit: { target: ".DONE", guard: { type: "amountDue", params: { pointer: "/fees" } } },
        },
      },
      // Nothing leaves it.
      DONE: { type: "final" },
    },
  },
  { actions: { log: () => console.log('x') } },
);
`;
    expect(machineFromStately(text)).toEqual({
      machine: {
        id: 'permit',
        initial: 'NEW',
        states: {
          NEW: {
            on: {
              store: 'STORED',
              drop: [{ target: 'DONE', guard: 'isPaid' }, { target: 'STORED' }],
            },
          },
          STORED: {
            description: "Kept as a 'draft'",
            meta: { estimatedDays: 2 },
            on: {
              update: 'STORED',
              submit: {
                target: 'DONE',
                guard: { type: 'amountDue', params: { pointer: '/fees' } },
              },
            },
          },
          DONE: { type: 'final' },
        },
      },
    });
  });

  it('says the text is not JSON', () => {
    expect(errorOf('hello')).toMatch(/not JSON of a machine config/);
    expect(errorOf('')).toMatch(/not JSON/);
    expect(errorOf('{"id": "x", "states": {')).toBe(
      'The machine config cannot be read: expected a property name, found the end of the text (line 1, column 24).',
    );
    expect(errorOf('{"id": "x"} trailing')).toMatch(/unexpected "t" after the machine config/);
  });

  it('never runs code: a function or a call is refused, not evaluated', () => {
    expect(errorOf("createMachine({ id: (() => 'x')(), states: {} })")).toMatch(
      /cannot be read: unexpected "\(" \(line 1, column 21\)/,
    );
    expect(errorOf('{ "id": process.exit(1) }')).toMatch(/"process" is not a plain value/);
  });

  it('names a transition targeting an unknown state', () => {
    expect(
      errorOf(
        JSON.stringify({
          id: 'x',
          initial: 'NEW',
          states: { NEW: { on: { store: 'STORED' } }, DONE: { type: 'final' } },
        }),
      ),
    ).toBe(
      'The action "store" of state "NEW" targets "STORED", which is not a state of the machine.',
    );
    expect(
      errorOf(
        JSON.stringify({
          id: 'x',
          initial: 'NEW',
          states: { NEW: { on: { go: [{ target: 'NEW', guard: 'a' }, { target: 'GONE' }] } } },
        }),
      ),
    ).toMatch(/"go" of state "NEW" targets "GONE"/);
  });

  it('says what else a workflow cannot have', () => {
    const machine = (states: unknown, extra: object = {}) =>
      errorOf(JSON.stringify({ id: 'x', initial: 'NEW', states, ...extra }));
    expect(errorOf('{}')).toBe('The machine has no states.');
    expect(machine({})).toBe('The machine has no states.');
    expect(errorOf('{"initial": "NEW", "states": {"NEW": {}}}')).toBe('The machine has no id.');
    expect(machine({ STORED: {} })).toBe('The initial state "NEW" is not a state of the machine.');
    expect(machine({ NEW: { states: { A: {} } } })).toBe(
      'State "NEW" has states of its own: a workflow\'s states are flat.',
    );
    expect(machine({ NEW: { after: { 1000: 'NEW' } } })).toMatch(/delayed \("after"\)/);
    expect(machine({ NEW: { type: 'parallel' } })).toMatch(/of type "parallel"/);
    expect(machine({ NEW: { on: { go: { target: 'NEW', cond: 'ok' } } } })).toMatch(
      /uses "cond", XState 4's name for a guard/,
    );
    expect(machine({ NEW: { on: { go: { target: 'NEW', actions: ['log'] } } } })).toMatch(
      /has actions/,
    );
    expect(machine({ NEW: { on: { go: { target: 'NEW', guard: 42 } } } })).toMatch(/guard/);
    expect(machine({ NEW: {} }, { on: { go: 'NEW' } })).toMatch(/machine itself has transitions/);
  });
});
