import { setup, transition, type AnyStateMachine } from 'xstate';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { Guard, GuardInput } from './guards';

export interface WorkflowEvent {
  type: string;
  input: GuardInput;
}

/** The delay XState is given for a durable timer: never waited for in memory. */
const DURABLE = 2 ** 31 - 1;

/** A guard input without a document: every guard notes it was asked and says no. */
class GuardProbe {
  consulted = false;
}

/** An event as the machine's guards receive it: a real one, or a probe's. */
type ProbedEvent = { type: string; input: GuardInput | GuardProbe };

/** The workflow's XState machine, never run as an actor: only asked what an event does. */
export function buildMachine(
  workflow: WorkflowDefinition,
  guardImplementations: ReadonlyMap<string, Guard>,
): AnyStateMachine {
  const guards = Object.fromEntries(
    [...guardImplementations].map(([name, guard]) => [
      name,
      ({ event }: { event: ProbedEvent }, params: Record<string, unknown> | undefined) => {
        if (event.input instanceof GuardProbe) {
          event.input.consulted = true;
          return false;
        }
        return guard(event.input, params ?? {});
      },
    ]),
  );
  // Every timer a state names gets a delay: XState takes an unknown one for none and would leave
  // the state as it is entered. Never run: the timer worker fires the delayed events (timers.ts).
  const delays = Object.fromEntries(
    Object.values(workflow.machine.states).flatMap((state) =>
      Object.keys((state as { after?: object }).after ?? {}).map((name) => [name, DURABLE]),
    ),
  );
  const machineSetup = setup({ types: {} as { events: ProbedEvent }, guards, delays });
  // The config is data from workflows/*.json, checked against our meta-schema at start.
  type Config = Parameters<typeof machineSetup.createMachine>[0];
  return machineSetup.createMachine(workflow.machine as unknown as Config);
}

/**
 * Whether `status` is a state of the machine: a removed status (old definitions in another
 * process) allows no action rather than XState throwing on every read.
 */
function hasStatus(machine: AnyStateMachine, status: string): boolean {
  return Object.hasOwn(machine.states, status);
}

/** The status an event leads to from `status`, or undefined when the machine does not allow it. */
export function nextStatus(
  machine: AnyStateMachine,
  status: string,
  event: WorkflowEvent,
): string | undefined {
  if (!hasStatus(machine, status)) return undefined;
  const snapshot = machine.resolveState({ value: status, context: {} });
  if (!snapshot.can(event)) return undefined;
  const [next] = transition(machine, snapshot, event);
  return typeof next.value === 'string' ? next.value : undefined;
}

export type StandingAnswer =
  { kind: 'always'; target: string } | { kind: 'never' } | { kind: 'guarded' };

/** An event's answer in a status before any document: `always`, `never` or `guarded`. */
export function standingAnswer(
  machine: AnyStateMachine,
  status: string,
  type: string,
): StandingAnswer {
  if (!hasStatus(machine, status)) return { kind: 'never' };
  const probe = new GuardProbe();
  const snapshot = machine.resolveState({ value: status, context: {} });
  const allowed = snapshot.can({ type, input: probe });
  if (probe.consulted) return { kind: 'guarded' };
  if (!allowed) return { kind: 'never' };
  // As nextStatus: a transition to a status (this engine's machines are flat).
  const [next] = transition(machine, snapshot, { type, input: probe });
  if (typeof next.value !== 'string' || probe.consulted) return { kind: 'guarded' };
  return { kind: 'always', target: next.value };
}
