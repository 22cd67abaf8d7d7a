import { setup, transition, type AnyStateMachine } from 'xstate';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { Guard, GuardInput } from './guards';

export interface WorkflowEvent {
  type: string;
  input: GuardInput;
}

/**
 * Builds the workflow's XState machine with the guards it may name (the engine's and modules'). The machine is never run as
 * an actor: the server asks it, purely, what an event does in a status (`transition`), inside
 * the database transaction that then writes the result.
 */
export function buildMachine(
  workflow: WorkflowDefinition,
  guardImplementations: ReadonlyMap<string, Guard>,
): AnyStateMachine {
  const guards = Object.fromEntries(
    [...guardImplementations].map(([name, guard]) => [
      name,
      ({ event }: { event: WorkflowEvent }, params: Record<string, unknown> | undefined) =>
        guard(event.input, params ?? {}),
    ]),
  );
  const machineSetup = setup({ types: {} as { events: WorkflowEvent }, guards });
  // The config is data from workflows/*.json, checked against our meta-schema at start.
  type Config = Parameters<typeof machineSetup.createMachine>[0];
  return machineSetup.createMachine(workflow.machine as unknown as Config);
}

/** The status an event leads to from `status`, or undefined when the machine does not allow it. */
export function nextStatus(
  machine: AnyStateMachine,
  status: string,
  event: WorkflowEvent,
): string | undefined {
  const snapshot = machine.resolveState({ value: status, context: {} });
  if (!snapshot.can(event)) return undefined;
  const [next] = transition(machine, snapshot, event);
  return typeof next.value === 'string' ? next.value : undefined;
}
