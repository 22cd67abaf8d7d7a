import { beforeAll, describe, expect, it } from 'vitest';
import { fullRoles, type WorkflowDefinition } from '../../src/core/documents/workflow';
import { serverModules } from '../../src/modules/server';
import type { Principal } from '../../src/server/auth/principal';
import { PROJECT_ROOT } from '../../src/server/config';
import { loadDefinitions } from '../../src/server/definitions/load';
import type { PlannedWorkflow } from '../../src/server/documents/action-plans';
import {
  allowedActions,
  allowedActionsByMachine,
  guardInput,
} from '../../src/server/documents/access';
import { actionPlansOf } from '../../src/server/documents/action-plans';
import { buildMachine, nextStatus } from '../../src/server/documents/machine';
import { implementationsOf } from '../../src/server/implementations';

/**
 * A document's allowed actions are planned once per status, roles and ownership, and the
 * machine is asked per document only where a guard decides. The planned answer must be the
 * machine's own for every document: every status of every workflow, every role of it alone and
 * in pairs (every combination when a workflow has few), owner or not, and documents that turn
 * each guard the workflows name both ways (the fees due, the status before a cancellation, who
 * is assigned, a number). Each plan is made by the first document asked and then served to the
 * others, so a plan that kept anything of one document would show here.
 */

const CALLER = 'caller-1';

interface GuardUse {
  type: string;
  params: Record<string, unknown>;
}

/** Every guard a machine's transitions name, with its parameters. */
function guardsOf(machine: unknown): GuardUse[] {
  const found: GuardUse[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    const guard = record.guard;
    if (typeof guard === 'string') found.push({ type: guard, params: {} });
    else if (typeof guard === 'object' && guard !== null) {
      const { type, params } = guard as { type: string; params?: Record<string, unknown> };
      found.push({ type, params: params ?? {} });
    }
    Object.values(record).forEach(visit);
  };
  visit(machine);
  return found;
}

/** Sets a JSON pointer's value in an object, making the objects on the way. */
function setPointer(data: Record<string, unknown>, pointer: string, value: unknown): void {
  const parts = pointer.split('/').slice(1);
  const last = parts.pop();
  if (last === undefined) return;
  let node = data;
  for (const part of parts) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[last] = value;
}

/** Documents in `status` that turn each guard of the workflow both ways. */
function documentsIn(status: string, workflow: WorkflowDefinition) {
  const guards = guardsOf(workflow.machine);
  // Each status a guard asks about, and one it does not.
  const previous = [
    ...new Set(
      guards.flatMap(({ params }) => (typeof params.status === 'string' ? [params.status] : [])),
    ),
    'NEW',
  ];
  const satisfied: Record<string, unknown> = {};
  for (const { params } of guards) {
    if (typeof params.pointer !== 'string') continue;
    setPointer(satisfied, params.pointer, 'value' in params ? params.value : '120.00');
  }
  const zero: Record<string, unknown> = {};
  for (const { params } of guards) {
    if (typeof params.pointer === 'string') setPointer(zero, params.pointer, '0.00');
  }
  const base = {
    status,
    previous_status: null as string | null,
    owner: CALLER,
    assignee: null as string | null,
    number: null as string | null,
    data: {} as Record<string, unknown>,
  };
  return [
    base,
    { ...base, data: satisfied },
    { ...base, data: zero },
    { ...base, assignee: CALLER },
    { ...base, assignee: 'someone-else', number: '2026-000001' },
    ...previous.map((before) => ({ ...base, previous_status: before, data: satisfied })),
  ];
}

/** The role sets to try: every combination of few roles, else each alone and in pairs. */
function roleSets(roles: string[]): string[][] {
  if (roles.length <= 8) {
    return Array.from({ length: 2 ** roles.length }, (_, mask) =>
      roles.filter((_, i) => mask & (1 << i)),
    );
  }
  const pairs = roles.flatMap((a, i) => roles.slice(i + 1).map((b) => [a, b]));
  return [[], roles, ...roles.map((r) => [r]), ...pairs];
}

describe('allowed actions, planned once and asked per document where a guard decides', () => {
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

  it('answers as the machine, action by action, for every workflow, status and role set', () => {
    let compared = 0;
    let guardedSeen = 0;
    for (const workflow of workflows) {
      const definition = workflow.definition;
      const statuses = Object.keys(definition.machine.states as Record<string, unknown>);
      const roles = [
        ...new Set(Object.values(definition.actions).flatMap((a) => workflow.rolesOf(a))),
      ];
      for (const status of statuses) {
        const documents = documentsIn(status, definition);
        for (const held of roleSets(roles)) {
          for (const owner of [true, false]) {
            // Roles of other workflows change nothing: the same plan must serve.
            const principal: Principal = {
              subject: owner ? CALLER : 'not-the-owner',
              roles: [...held, 'catalog-read'],
            };
            const first = allowedActions(workflow, documents[0]!, principal);
            for (const document of documents) {
              const planned = allowedActions(workflow, document, principal);
              const asked = allowedActionsByMachine(workflow, document, principal);
              expect(planned, `${definition.id} ${status} [${held.join(' ')}]`).toEqual(asked);
              compared++;
              if (planned.join() !== first.join()) guardedSeen++;
            }
          }
        }
        // Where each action (system ones too) leads, as the pipeline asks it.
        for (const action of Object.keys(definition.actions)) {
          for (const document of documents) {
            const event = {
              type: action,
              input: guardInput(document, { subject: CALLER, roles }),
            };
            expect(
              actionPlansOf(workflow).next(status, event),
              `${definition.id} ${status} ${action}`,
            ).toEqual(nextStatus(workflow.machine, status, event));
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
    // Some documents of the same status, roles and ownership were answered differently: the
    // guards were asked per document, not taken from the plan of the first one.
    expect(guardedSeen).toBeGreaterThan(0);
  });
});
