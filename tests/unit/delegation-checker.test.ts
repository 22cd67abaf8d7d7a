import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { EntityDefinition } from '../../src/core/definitions/types';
import { checkDelegation } from '../../src/server/definitions/check-delegation';
import type { ProblemText } from '../../src/server/definitions/problems';

/** `delegation` (docs/delegation.md): grants of owner actions, fields only the holder changes. */
const workflow = {
  id: 'permit',
  machine: { id: 'permit', initial: 'NEW', states: { NEW: {} } },
  actions: {
    update: { roles: ['update'], owner: true },
    submit: { roles: ['submit'], owner: true },
    verify: { roles: ['verify'] },
    pay: { roles: [], system: true },
  },
} as unknown as WorkflowDefinition;
const entity = {
  id: 'permit',
  schema: {
    type: 'object',
    properties: { declarations: { type: 'object', properties: { accepted: { type: 'boolean' } } } },
  },
} as unknown as EntityDefinition;

function problemsOf(delegation: unknown) {
  const found: Array<[string, string, unknown]> = [];
  checkDelegation({
    workflow: { ...workflow, delegation } as WorkflowDefinition,
    entity,
    report: (pointer: string, problem: ProblemText) =>
      found.push([pointer, problem.key, problem.params]),
  } as unknown as Parameters<typeof checkDelegation>[0]);
  return found;
}

describe('the checker of delegation', () => {
  it('accepts grants of owner actions and holder-only fields of the schema', () => {
    expect(
      problemsOf({
        grants: [
          { id: 'fill', label: 'permit.fill', actions: ['update'] },
          { id: 'submit', label: 'permit.submit', actions: ['submit'] },
        ],
        holderOnly: ['/declarations', '/declarations/accepted'],
      }),
    ).toEqual([]);
  });

  it('refuses an unknown action, an officer action, a system action, a grant twice and an unknown field', () => {
    expect(
      problemsOf({
        grants: [
          { id: 'fill', label: 'permit.fill', actions: ['update', 'fly'] },
          { id: 'fill', label: 'permit.fill', actions: ['verify', 'pay'] },
        ],
        holderOnly: ['/declarations', '/oath'],
      }),
    ).toEqual([
      ['/delegation/grants/0/actions/1', 'noAction', { action: 'fly' }],
      ['/delegation/grants/1/id', 'delegationGrantTwice', { grant: 'fill' }],
      ['/delegation/grants/1/actions/0', 'delegationNotOwnerAction', { action: 'verify' }],
      ['/delegation/grants/1/actions/1', 'delegationSystemAction', { action: 'pay' }],
      ['/delegation/holderOnly/1', 'noFieldInDocumentSchema', { field: '/oath' }],
    ]);
  });
});
