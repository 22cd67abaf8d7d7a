import type { WorkflowDefinition } from './workflow';

/**
 * Reads a workflow machine as data, without running it: the events a state lists. The browser
 * uses it to know which actions a screen could offer; the server evaluates guards on top.
 */
export function eventsInState(
  workflow: Pick<WorkflowDefinition, 'machine'>,
  status: string,
): string[] {
  const state = workflow.machine.states[status];
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return [];
  const on = (state as { on?: unknown }).on;
  return typeof on === 'object' && on !== null ? Object.keys(on) : [];
}

export function statusesOf(workflow: Pick<WorkflowDefinition, 'machine'>): string[] {
  return Object.keys(workflow.machine.states);
}
