/**
 * The studio's edits of a workflow's machine, as pure functions of its definition: statuses and
 * the transitions (and actions) between them added, changed, renamed and removed. Each gives a
 * new definition and leaves the one given untouched; a change the checker would refuse for a
 * reason the designer can see at once is refused here with a `WorkflowDesignError`.
 */
import { isNode, type JsonValue, type Node } from '../definitions/json';
import { STATUS_PATTERN } from '../definitions/shapes/kit';
import type { WorkflowDefinition } from '../definitions/shapes/workflow';
import { mapLeaves } from './text-keys';

/** Why an edit is refused: `code` names its text (studio.workflow.problems.<code>). */
export type WorkflowDesignProblem =
  | 'statusName'
  | 'statusExists'
  | 'noStatus'
  | 'initialStatus'
  | 'actionName'
  | 'transitionExists'
  | 'noTransition'
  | 'noRoles'
  | 'roleName'
  | 'statusInUse'
  /** The studio's own: a form sent without a part it needs. */
  | 'noTarget'
  | 'textsMissing';

export class WorkflowDesignError extends Error {
  constructor(
    readonly code: WorkflowDesignProblem,
    readonly params: Record<string, string> = {},
  ) {
    super(`${code} ${JSON.stringify(params)}`);
  }
}

/** The meta-schema's names: statuses in capitals and spaces, actions in lower case and dashes. */
const ACTION_PATTERN = /^[a-z][a-zA-Z-]*$/;
const ROLE_PATTERN = /^[a-z][a-z0-9-]*$/;
const statusPattern = new RegExp(STATUS_PATTERN);

/** One transition: the event `action` of status `from`, the `index`th of its alternatives. */
export interface TransitionRef {
  from: string;
  action: string;
  index: number;
}

/** A transition as the designer edits it: where it leads and the guard deciding it. */
export interface TransitionDesign {
  target: string;
  guard?: { type: string; params?: Record<string, JsonValue> };
}

/** A new transition: from one status to another by an action, new or already declared. */
export interface NewTransition {
  from: string;
  to: string;
  action: string;
  /** Role suffixes allowed to take it: required for a new action, added to a declared one's. */
  roles: string[];
  /** Indexes of the screens whose buttons offer the action. */
  screens?: number[];
}

type States = Record<string, Node>;

const copy = (workflow: WorkflowDefinition): WorkflowDefinition => structuredClone(workflow);
const statesOf = (workflow: WorkflowDefinition) => workflow.machine.states as States;
const onOf = (state: Node | undefined): Record<string, JsonValue> =>
  isNode(state?.on) ? (state.on as Record<string, JsonValue>) : {};

function alternatives(value: JsonValue | undefined): JsonValue[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function targetOf(transition: JsonValue, from: string): string {
  if (typeof transition === 'string') return transition;
  return isNode(transition) && typeof transition.target === 'string' ? transition.target : from;
}

function requireStatus(workflow: WorkflowDefinition, status: string): Node {
  const state = statesOf(workflow)[status];
  if (!Object.hasOwn(statesOf(workflow), status) || !isNode(state))
    throw new WorkflowDesignError('noStatus', { status });
  return state;
}

function checkStatusName(workflow: WorkflowDefinition, status: string): void {
  if (!statusPattern.test(status)) throw new WorkflowDesignError('statusName', { status });
  if (Object.hasOwn(statesOf(workflow), status))
    throw new WorkflowDesignError('statusExists', { status });
}

/** The status's text: its name on every badge, list and timeline. */
export const statusTextKey = (status: string) => `statuses.${status}`;
/** The action's text: its button and its line in the history. */
export const actionTextKey = (action: string) => `actions.${action}`;

/** Every transition of the machine, each with where it is. */
function transitionsOf(workflow: WorkflowDefinition) {
  return Object.entries(statesOf(workflow)).flatMap(([from, state]) =>
    Object.entries(onOf(state)).flatMap(([action, value]) =>
      alternatives(value).map((transition, index) => ({ from, action, index, transition })),
    ),
  );
}

/** The transition at `ref`, as the designer edits it. */
export function transitionAt(
  workflow: WorkflowDefinition,
  ref: TransitionRef,
): TransitionDesign | undefined {
  const found = alternatives(onOf(statesOf(workflow)[ref.from])[ref.action])[ref.index];
  if (found === undefined) return undefined;
  const guard = isNode(found) && found.guard !== undefined ? found.guard : undefined;
  return {
    target: targetOf(found, ref.from),
    ...(typeof guard === 'string' && { guard: { type: guard } }),
    ...(isNode(guard) &&
      typeof guard.type === 'string' && {
        guard: {
          type: guard.type,
          ...(isNode(guard.params) && { params: guard.params as Record<string, JsonValue> }),
        },
      }),
  };
}

/** Whether a transition names the status: leads there, or its guard asks about it. */
function namesStatus(transition: JsonValue, from: string, status: string): boolean {
  if (targetOf(transition, from) === status) return true;
  const guard = isNode(transition) ? transition.guard : undefined;
  return isNode(guard) && isNode(guard.params) && Object.values(guard.params).includes(status);
}

/** The transitions of other statuses that lead to `status` or whose guard names it. */
export function transitionsNaming(workflow: WorkflowDefinition, status: string): TransitionRef[] {
  return transitionsOf(workflow).flatMap(({ from, action, index, transition }) =>
    from !== status && namesStatus(transition, from, status) ? [{ from, action, index }] : [],
  );
}

/** A new status, with no transition yet; `final` when documents end there. */
export function addStatus(
  workflow: WorkflowDefinition,
  status: string,
  options: { final?: boolean } = {},
): WorkflowDefinition {
  checkStatusName(workflow, status);
  const next = copy(workflow);
  statesOf(next)[status] = options.final ? { type: 'final' } : {};
  return next;
}

/** A status's own settings (final, description, estimated days), its transitions kept. */
export function setStatus(
  workflow: WorkflowDefinition,
  status: string,
  settings: Node,
): WorkflowDefinition {
  const state = requireStatus(workflow, status);
  const next = copy(workflow);
  const { on: _ignored, ...rest } = settings;
  statesOf(next)[status] = {
    ...structuredClone(rest),
    ...(state.on !== undefined && { on: state.on }),
  };
  return next;
}

/**
 * The status renamed everywhere the workflow names it (transitions, guards, lists, certificate,
 * tasks); documents stored in it move to the new name at the next start (`statusMoves`).
 */
export function renameStatus(
  workflow: WorkflowDefinition,
  from: string,
  to: string,
  options: { moveDocuments?: boolean } = {},
): WorkflowDefinition {
  requireStatus(workflow, from);
  if (from === workflow.machine.initial)
    throw new WorkflowDesignError('initialStatus', { status: from });
  checkStatusName(workflow, to);
  const { machine, statusMoves, ...rest } = workflow;
  const states = Object.fromEntries(
    Object.entries(machine.states).map(([name, state]) => [name === from ? to : name, state]),
  );
  // Every value equal to `from` in the whole definition but its notes and machine's keys.
  const renamed = mapLeaves(
    { ...rest, machine: { ...machine, states } },
    (value) => (value === from ? to : value),
    '$comment',
  ) as WorkflowDefinition;
  const moves = Object.fromEntries(
    Object.entries(statusMoves ?? {}).map(([old, target]) => [old, target === from ? to : target]),
  );
  if (options.moveDocuments !== false) moves[from] = to;
  return Object.keys(moves).length > 0 ? { ...renamed, statusMoves: moves } : renamed;
}

/**
 * Without the actions `names`, and the places naming them: screens' buttons and notes, actions'
 * `notBy`, the screen roles that then allow none of a screen's actions (check-roles.ts refuses
 * those), and the actions screening runs at.
 */
export function withoutActions(
  workflow: WorkflowDefinition,
  names: readonly string[],
): WorkflowDefinition {
  if (names.length === 0) return workflow;
  const keep = (name: unknown) => typeof name !== 'string' || !names.includes(name);
  const actions = Object.fromEntries(
    Object.entries(workflow.actions).filter(([name]) => keep(name)),
  ) as WorkflowDefinition['actions'];
  // Nor does an action's `notBy` (separation of duties): an empty one goes.
  for (const [name, action] of Object.entries(actions)) {
    if (!action.notBy || action.notBy.every(keep)) continue;
    const { notBy, ...rest } = action;
    const kept = notBy.filter(keep);
    actions[name] = kept.length > 0 ? { ...rest, notBy: kept } : rest;
  }
  // A reconciliation whose shortfall action is gone could not ask for the difference: it goes.
  for (const [name, action] of Object.entries(actions)) {
    if (!action.reconcile || keep(action.reconcile.short)) continue;
    const { reconcile: _gone, ...rest } = action;
    actions[name] = rest;
  }
  const screens = workflow.screens.map((screen) => {
    const next = { ...screen };
    if (next.actions) next.actions = next.actions.filter(keep);
    if (next.showNotesOf) next.showNotesOf = next.showNotesOf.filter(keep);
    if (next.showNotesOf?.length === 0) delete next.showNotesOf;
    if (next.fire !== undefined && !keep(next.fire)) delete next.fire;
    const allowing = next.roles.filter((role) =>
      (next.actions ?? []).some((name) => actions[name]?.roles.includes(role)),
    );
    if (next.actions?.length && allowing.length > 0) next.roles = allowing;
    return next;
  });
  // Screening stops at the actions gone; with none left it screens nothing and goes.
  const screenedAt = workflow.screening?.on.filter(keep);
  if (!workflow.screening || screenedAt?.length === workflow.screening.on.length)
    return { ...workflow, actions, screens };
  const { screening, ...rest } = workflow;
  return screenedAt?.length
    ? { ...rest, actions, screens, screening: { ...screening, on: screenedAt } }
    : { ...rest, actions, screens };
}

/** Without the declared actions no status's event names any more. */
function withoutUnusedActions(workflow: WorkflowDefinition): WorkflowDefinition {
  const used = new Set(transitionsOf(workflow).map((t) => t.action));
  // A timer's action is taken when the timer fires (docs/workflows.md, "Timers").
  for (const timer of Object.values(workflow.timers ?? {})) used.add(timer.action);
  return withoutActions(
    workflow,
    Object.keys(workflow.actions).filter((name) => !used.has(name)),
  );
}

/** The actions a change would leave no status offering: they go with it. */
export function actionsLeftUnused(before: WorkflowDefinition, after: WorkflowDefinition): string[] {
  return Object.keys(before.actions).filter((name) => !Object.hasOwn(after.actions, name));
}

/**
 * A transition from one status to another by an action: a new action is declared with `roles`
 * (its text is the caller's: `actionTextKey`), a declared one gains those of `roles` it lacks;
 * the screens named offer it.
 */
export function addTransition(
  workflow: WorkflowDefinition,
  transition: NewTransition,
): WorkflowDefinition {
  const { from, to, action, roles } = transition;
  requireStatus(workflow, from);
  requireStatus(workflow, to);
  if (!ACTION_PATTERN.test(action)) throw new WorkflowDesignError('actionName', { action });
  for (const role of roles)
    if (!ROLE_PATTERN.test(role)) throw new WorkflowDesignError('roleName', { role });
  const next = copy(workflow);
  const state = statesOf(next)[from] as Node;
  if (state.type === 'final') delete state.type;
  const on = (state.on ??= {}) as Record<string, JsonValue>;
  if (Object.hasOwn(on, action))
    throw new WorkflowDesignError('transitionExists', { from, action });
  const declared = Object.hasOwn(next.actions, action) ? next.actions[action] : undefined;
  if (!declared && roles.length === 0) throw new WorkflowDesignError('noRoles', { action });
  on[action] = to;
  if (declared) declared.roles = [...new Set([...declared.roles, ...roles])];
  else next.actions[action] = { roles: [...new Set(roles)] };
  for (const i of transition.screens ?? []) {
    const screen = next.screens[i];
    if (!screen || (screen.actions ?? []).includes(action)) continue;
    screen.actions = [...(screen.actions ?? []), action];
    // Those who may take the action may open the screen offering it.
    const allowed = next.actions[action]?.roles ?? [];
    screen.roles = [...new Set([...screen.roles, ...allowed])];
  }
  return next;
}

/** The transition at `ref` leading to `design.target` under `design.guard` (none: always). */
export function setTransition(
  workflow: WorkflowDefinition,
  ref: TransitionRef,
  design: TransitionDesign,
): WorkflowDefinition {
  requireStatus(workflow, design.target);
  const next = copy(workflow);
  const on = onOf(statesOf(next)[ref.from]);
  const list = alternatives(on[ref.action]);
  if (list[ref.index] === undefined)
    throw new WorkflowDesignError('noTransition', { from: ref.from, action: ref.action });
  const params = design.guard?.params;
  const guard: JsonValue | undefined = design.guard?.type
    ? {
        type: design.guard.type,
        ...(params && Object.keys(params).length > 0 && { params }),
      }
    : undefined;
  // A lone transition without a guard is written as its target alone, as the workflows are.
  const written: JsonValue = guard ? { target: design.target, guard } : design.target;
  list[ref.index] = Array.isArray(on[ref.action]) && !guard ? { target: design.target } : written;
  on[ref.action] = Array.isArray(on[ref.action]) ? list : written;
  return next;
}

/**
 * Without the transition at `ref` (an event's alternative, or the event when it was its only
 * one); an action no status offers any more goes too, from the screens as well.
 */
export function removeTransition(
  workflow: WorkflowDefinition,
  ref: TransitionRef,
): WorkflowDefinition {
  const next = copy(workflow);
  const state = statesOf(next)[ref.from];
  const on = onOf(state);
  const list = alternatives(on[ref.action]);
  if (list[ref.index] === undefined)
    throw new WorkflowDesignError('noTransition', { from: ref.from, action: ref.action });
  list.splice(ref.index, 1);
  if (list.length === 0) delete on[ref.action];
  else
    on[ref.action] =
      list.length === 1 && isNode(list[0]) && !list[0].guard ? targetOf(list[0], ref.from) : list;
  if (state && Object.keys(on).length === 0) delete state.on;
  return withoutUnusedActions(next);
}

/** Removes array items equal to `status`, and objects of arrays whose `status` is it. */
function withoutStatusValues(value: unknown, status: string): unknown {
  if (Array.isArray(value))
    return value
      .filter((item) => item !== status && !(isNode(item) && item.status === status))
      .map((item) => withoutStatusValues(item, status));
  if (!isNode(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, withoutStatusValues(item, status)]),
  );
}

/**
 * Without the status and the transitions leaving it. Transitions of other statuses naming it
 * refuse the removal (`statusInUse`) unless `withTransitions`, which removes them too; the lists,
 * certificate and tasks naming it stop naming it. Documents stored in it move to `moveTo`.
 */
export function removeStatus(
  workflow: WorkflowDefinition,
  status: string,
  options: { withTransitions?: boolean; moveTo?: string } = {},
): WorkflowDefinition {
  requireStatus(workflow, status);
  if (status === workflow.machine.initial)
    throw new WorkflowDesignError('initialStatus', { status });
  const naming = transitionsNaming(workflow, status);
  if (naming.length > 0 && !options.withTransitions)
    throw new WorkflowDesignError('statusInUse', { status, count: String(naming.length) });
  if (options.moveTo !== undefined) requireStatus(workflow, options.moveTo);
  // The later alternatives of an event removed first, so that the indexes stay true.
  const { machine, statusMoves, ...rest } = naming
    .sort((a, b) => b.index - a.index)
    .reduce(removeTransition, workflow);
  const states = { ...machine.states };
  delete states[status];
  const cleaned = withoutStatusValues(rest, status) as Omit<WorkflowDefinition, 'machine'>;
  const moves = { ...(statusMoves ?? {}) };
  if (options.moveTo !== undefined) moves[status] = options.moveTo;
  const next = {
    ...cleaned,
    machine: { ...machine, states },
    ...(Object.keys(moves).length > 0 && { statusMoves: moves }),
  } as WorkflowDefinition;
  return withoutUnusedActions(next);
}

/** Where a text lives: a module's own file (`translations/<lang>/<namespace>.json`) or the shared one. */
export function textPlace(
  key: string,
  language: string,
  hasFile: (path: string) => boolean,
): { file: string; key: string } {
  const [namespace, ...rest] = key.split('.');
  const own = `translations/${language}/${namespace}.json`;
  if (rest.length > 0 && hasFile(own)) return { file: own, key: rest.join('.') };
  return { file: `translations/${language}.json`, key };
}

/** A name as a first text to start from: `legal-review` -> "Legal review". */
export function textFromName(name: string): string {
  const words = name.replace(/[-_]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The names an edit is offered: guards and effects the definitions use, roles of the workflow. */
export interface DesignNames {
  guards: string[];
  effects: string[];
  roles: string[];
}

/**
 * Guards and effects as the definitions already name them (every one the checker accepted, so
 * one the engine or a module offers), and the role suffixes `workflow` uses. Another name may
 * be typed: the checker says at once when neither the engine nor a module offers it.
 */
export function definedNames(
  workflows: readonly WorkflowDefinition[],
  workflow: WorkflowDefinition,
): DesignNames {
  const guards = new Set<string>();
  const effects = new Set<string>();
  for (const each of workflows) {
    for (const { transition } of transitionsOf(each)) {
      const guard = isNode(transition) ? transition.guard : undefined;
      if (typeof guard === 'string') guards.add(guard);
      else if (isNode(guard) && typeof guard.type === 'string') guards.add(guard.type);
    }
    for (const action of Object.values(each.actions))
      for (const name of [...(action.effects ?? []), ...(action.before ?? [])]) effects.add(name);
    for (const name of each.derive?.effects ?? []) effects.add(name);
  }
  const roles = new Set([
    ...Object.values(workflow.actions).flatMap((action) => action.roles),
    ...workflow.screens.flatMap((screen) => screen.roles),
    ...workflow.lists.flatMap((list) => list.roles),
    ...workflow.seeAll,
  ]);
  const sorted = (names: Set<string>) => [...names].sort();
  return { guards: sorted(guards), effects: sorted(effects), roles: sorted(roles) };
}
