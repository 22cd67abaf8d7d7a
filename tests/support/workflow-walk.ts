import { serverModules } from '../../src/modules/server';
import { implementationsOf } from '../../src/server/implementations';
import { getShortestPaths } from 'xstate/graph';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { Principal } from '../../src/server/auth/principal';
import type { GuardInput } from '../../src/server/documents/guards';
import { buildMachine, nextStatus, type WorkflowEvent } from '../../src/server/documents/machine';
import { timerEvent, timersOf } from '../../src/core/documents/timers';

/** A step the walk takes by firing the due timers (`xstate.after.<timer>.<machine>.<status>`). */
export const isTimerStep = (action: string): boolean => action.startsWith('xstate.after.');

/** What the walk needs to know of a document to predict the machine's answer. */
export interface SimulatedDocument {
  status: string;
  previousStatus: string | null;
  data: Record<string, unknown>;
}

/** A way to reach a status from NEW: the events in order, with the data each carries. */
export interface PathToStatus {
  status: string;
  steps: Array<{ action: string; data: Record<string, unknown> }>;
  document: SimulatedDocument;
}

const PRINCIPAL: Principal = { subject: 'walker', roles: [] };

function input(document: SimulatedDocument): GuardInput {
  return {
    document: {
      status: document.status,
      previousStatus: document.previousStatus,
      owner: 'walker',
      assignee: null,
      number: null,
      data: document.data,
    },
    principal: PRINCIPAL,
  };
}

/**
 * The shortest path to every status of a workflow, found by xstate's graph utilities on the
 * workflow's own machine (with the server's guards). Each event is offered with every data
 * variant given, so guarded branches (a fee due or not) are both reached.
 */
export function pathsToEveryStatus(
  workflow: WorkflowDefinition,
  dataVariants: Array<Record<string, unknown>>,
): PathToStatus[] {
  const machine = buildMachine(workflow, implementationsOf(serverModules).guards);
  // A document the server alone creates (a notice posted to an inbox) is reached the way
  // people create it; a system action from NEW is not a step anyone can take.
  const initial = workflow.machine.states[workflow.machine.initial] as
    { on?: Record<string, unknown> } | undefined;
  const serverCreations = Object.keys(initial?.on ?? {}).filter(
    (action) => workflow.actions[action]?.system,
  );
  const events: WorkflowEvent[] = Object.keys(workflow.actions)
    .filter((type) => !serverCreations.includes(type))
    .flatMap((type) =>
      dataVariants.map((data) => ({
        type,
        input: input({ status: '', previousStatus: null, data }),
      })),
    );
  // A timer's delayed event (`after`) leads on too: the walk takes it by polling the timers.
  const timerEvents: WorkflowEvent[] = Object.keys(workflow.machine.states).flatMap((status) =>
    Object.keys(timersOf(workflow, status)).flatMap((timer) =>
      dataVariants.map((data) => ({
        type: timerEvent(workflow, status, timer),
        input: input({ status: '', previousStatus: null, data }),
      })),
    ),
  );
  const paths = getShortestPaths(machine, { events: [...events, ...timerEvents] });
  return paths.map((path) => {
    const document: SimulatedDocument = { status: 'NEW', previousStatus: null, data: {} };
    const steps = path.steps
      .filter((step) => step.event.type !== 'xstate.init')
      .map((step) => {
        const event = step.event as WorkflowEvent;
        const data = event.input.document.data;
        if (event.type === 'cancel') document.previousStatus = document.status;
        document.status = String(step.state.value);
        document.data = data;
        return { action: event.type, data };
      });
    return { status: String(path.state.value), steps, document };
  });
}

/** The status `action` leads to from the document, as the workflow's machine decides. */
export function expectedTarget(
  workflow: WorkflowDefinition,
  document: SimulatedDocument,
  action: string,
): string | undefined {
  return nextStatus(
    buildMachine(workflow, implementationsOf(serverModules).guards),
    document.status,
    {
      type: action,
      input: input(document),
    },
  );
}
