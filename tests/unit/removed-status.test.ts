import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { serverModules } from '../../src/modules/server';
import { buildMachine, nextStatus, standingAnswer } from '../../src/server/documents/machine';
import { implementationsOf } from '../../src/server/implementations';
import { readProjectJson } from '../support/definitions-dir';

/**
 * A document whose status its machine does not have (removed while another process still ran
 * the old definitions) allows no action: reading it must not fail, as XState would on a state
 * it does not know ("State 'SUBMITTED' does not exist", a 500 to the document's own owner).
 */
describe('a status the machine does not have', () => {
  it('allows no action, where the machine itself would throw', async () => {
    const workflow = await readProjectJson<WorkflowDefinition>(
      'workflows/sponsor-application.json',
    );
    const machine = buildMachine(workflow, implementationsOf(serverModules).guards);
    expect(() => machine.resolveState({ value: 'GONE', context: {} })).toThrow(/GONE/);
    expect(nextStatus(machine, 'GONE', { type: 'submit', input: {} as never })).toBeUndefined();
    expect(standingAnswer(machine, 'GONE', 'submit')).toEqual({ kind: 'never' });
    // A status it has still answers as before.
    expect(standingAnswer(machine, 'STORED', 'cancel')).toEqual({
      kind: 'always',
      target: 'CANCELLED',
    });
  });
});
