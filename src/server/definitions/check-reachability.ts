import { escapeSegment } from '../../core/rules/registry';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { WorkflowScope } from './check-references';
import { said, type Report } from './problems';

/** An event's transition as a machine states it: a target, or an object that may name one. */
type Transition = string | { target?: unknown };

interface Status {
  final: boolean;
  /** The statuses the status's actions lead to (itself for an action without target). */
  leadsTo: Set<string>;
  /** Whether it has any action at all, even one that stays. */
  hasActions: boolean;
}

/**
 * Where a document can go: a document enters a status only by an action of the machine or a
 * timer (`after`; the meta-schema allows no `always`, and no effect sets a status), or at start when
 * `statusMoves` moves the documents of a removed status there. A status no document can enter
 * is a slip (a misspelt target, a transition removed) that would only show when someone looks
 * for documents there; a status documents enter but cannot leave, unless it is final, strands
 * them with no button to press. Both are refused; a status entered only through `statusMoves`
 * (documents of a removed status kept where they were put) is allowed, with a warning.
 */
export function checkReachability({ workflow, report }: WorkflowScope, warn: Report): void {
  const statuses = statusesOf(workflow);
  const initial = workflow.machine.initial;
  const fromInitial = reachableFrom([initial], statuses);
  const movedTo = Object.values(workflow.statusMoves ?? {}).filter((to) => statuses.has(to));
  const fromMoves = reachableFrom(movedTo, statuses);
  for (const [name, status] of statuses) {
    const at = `/machine/states/${escapeSegment(name)}`;
    if (!fromInitial.has(name)) {
      if (fromMoves.has(name)) warn(at, said('reachedOnlyByMoves', { status: name, initial }));
      else report(at, said('unreachableStatus', { status: name, initial }));
    }
    if (!status.final && !status.hasActions) report(at, said('deadEndStatus', { status: name }));
    if (status.final && status.hasActions)
      report(`${at}/on`, said('finalStatusWithActions', { status: name }));
  }
}

function statusesOf(workflow: WorkflowDefinition): Map<string, Status> {
  const statuses = new Map<string, Status>();
  for (const [name, state] of Object.entries(workflow.machine.states)) {
    const node = state as {
      on?: Record<string, Transition | Transition[]>;
      after?: Record<string, Transition>;
      type?: string;
    };
    // A timer's delayed transition (`after`) leads on as an action does.
    const events = [...Object.values(node.on ?? {}), ...Object.values(node.after ?? {})];
    const leadsTo = new Set<string>();
    for (const transitions of events)
      for (const transition of Array.isArray(transitions) ? transitions : [transitions]) {
        const target = typeof transition === 'string' ? transition : transition.target;
        leadsTo.add(typeof target === 'string' ? target : name);
      }
    statuses.set(name, { final: node.type === 'final', leadsTo, hasActions: events.length > 0 });
  }
  return statuses;
}

/** Every status reached from `starts` (themselves included) through the statuses' actions. */
function reachableFrom(starts: readonly string[], statuses: Map<string, Status>): Set<string> {
  const reached = new Set(starts.filter((start) => statuses.has(start)));
  const waiting = [...reached];
  for (let next = waiting.pop(); next !== undefined; next = waiting.pop())
    for (const target of statuses.get(next)?.leadsTo ?? [])
      if (statuses.has(target) && !reached.has(target)) {
        reached.add(target);
        waiting.push(target);
      }
  return reached;
}
