/** A workflow's machine as Stately's editor (XState v5) opens it, with each transition's roles, and back; the import reads the object literal as data. */
import { declaredAction, fullRoles, type WorkflowDefinition } from '../documents/workflow';
import { withoutActions } from '../studio/workflow-design';
import type { JsonValue } from './json';

type JsonObject = { [key: string]: JsonValue };

/** A workflow's machine: flat states named after statuses, events named after actions. */
export type WorkflowMachine = WorkflowDefinition['machine'];

/** A guard as XState v5 names one: by its name, or by its name with parameters. */
export type MachineGuard = string | { type: string; params?: JsonObject };

/** A transition as Stately's editor shows it, with who may take it. */
export interface StatelyTransition {
  target?: string;
  guard?: MachineGuard;
  description?: string;
  meta: { roles: string[]; system?: true };
}

export interface StatelyState {
  type?: 'final';
  description?: string;
  meta?: JsonObject;
  on?: Record<string, StatelyTransition | StatelyTransition[]>;
  /** The workflow's timers (docs/workflows.md, "Timers"): XState's delayed transitions by name. */
  after?: JsonObject;
}

export interface StatelyMachineConfig {
  id: string;
  initial: string;
  states: Record<string, StatelyState>;
}

export type StatelyImport = { machine: WorkflowMachine } | { error: string };

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A state's `on`, whatever the JSON holds there. */
export function eventsOf(state: JsonValue | undefined): Array<[string, JsonValue]> {
  if (!isObject(state) || !isObject(state.on)) return [];
  return Object.entries(state.on);
}

function guardOf(value: JsonValue | undefined): MachineGuard | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (!isObject(value) || typeof value.type !== 'string') return undefined;
  return isObject(value.params) ? { type: value.type, params: value.params } : { type: value.type };
}

/**
 * Every transition of the machine, state by state, an event's alternatives in their order; its
 * `target` is the state itself when the transition names none; `alternative`, for an event
 * listing alternatives, its index there (a JSON pointer to it ends with it).
 */
export function machineTransitions(machine: WorkflowMachine) {
  return Object.entries(machine.states).flatMap(([from, state]) =>
    eventsOf(state).flatMap(([action, transitions]) =>
      (Array.isArray(transitions) ? transitions : [transitions]).map((transition, index) => {
        const { target, guard } = partsOf(transition);
        return {
          from,
          action,
          target: target ?? from,
          ...(guard && { guard }),
          ...(Array.isArray(transitions) && { alternative: index }),
        };
      }),
    ),
  );
}

/** A transition's target and guard, whatever the JSON holds. */
function partsOf(transition: JsonValue): { target?: string; guard?: MachineGuard } {
  const target = isObject(transition) ? transition.target : transition;
  const guard = isObject(transition) ? guardOf(transition.guard) : undefined;
  return { ...(typeof target === 'string' && { target }), ...(guard && { guard }) };
}

function statelyTransition(
  transition: JsonValue,
  meta: StatelyTransition['meta'],
): StatelyTransition {
  return {
    ...partsOf(transition),
    // Stately's editor shows a transition's description on the canvas, its meta only as data.
    ...(meta.system && { description: 'Fired by the server only.' }),
    // Each transition its own copy: the alternatives of an event share the action's roles.
    meta: { ...meta, roles: [...meta.roles] },
  };
}

function statelyState(workflow: WorkflowDefinition, state: JsonValue): StatelyState {
  if (!isObject(state)) return {};
  const events = eventsOf(state);
  const on = Object.fromEntries(
    events.map(([action, transitions]) => {
      const declared = declaredAction(workflow, action);
      const meta: StatelyTransition['meta'] = {
        roles: fullRoles(workflow, declared?.roles ?? []),
        ...(declared?.system && { system: true as const }),
      };
      const converted = Array.isArray(transitions)
        ? transitions.map((t) => statelyTransition(t, meta))
        : statelyTransition(transitions, meta);
      return [action, converted];
    }),
  );
  return {
    ...(state.type === 'final' && { type: 'final' as const }),
    ...(typeof state.description === 'string' && { description: state.description }),
    ...(isObject(state.meta) && { meta: state.meta }),
    ...(events.length > 0 && { on }),
    ...(isObject(state.after) && { after: state.after }),
  };
}

/** The workflow's machine as an XState v5 config, each transition's roles in its `meta`. */
export function statelyMachine(workflow: WorkflowDefinition): StatelyMachineConfig {
  const { id, initial, states } = workflow.machine;
  const entries = Object.entries(states).map(([name, state]) => [
    name,
    statelyState(workflow, state),
  ]);
  return { id, initial, states: Object.fromEntries(entries) };
}

/** The module Stately's editor imports: the config passed to `createMachine`, as JSON. */
export function statelyModule(workflow: WorkflowDefinition): string {
  const config = JSON.stringify(statelyMachine(workflow), null, 2);
  return `import { createMachine } from 'xstate';\n\nexport const machine = createMachine(${config});\n`;
}

// Reading JSON, or a module's object literal (unquoted keys, quotes, comments, `as` casts).

class ReadError extends Error {}

interface Cursor {
  text: string;
  at: number;
}

function fail(cursor: Cursor, message: string): never {
  const before = cursor.text.slice(0, cursor.at).split('\n');
  const line = before.length;
  const column = (before.at(-1)?.length ?? 0) + 1;
  throw new ReadError(
    `The machine config cannot be read: ${message} (line ${line}, column ${column}).`,
  );
}

/** What the sticky `pattern` matches at the cursor, moved past it. */
function take(cursor: Cursor, pattern: RegExp): RegExpExecArray | null {
  pattern.lastIndex = cursor.at;
  const match = pattern.exec(cursor.text);
  if (match) cursor.at = pattern.lastIndex;
  return match;
}

function skipSpace(cursor: Cursor): void {
  take(cursor, /(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/y);
}

function readWord(cursor: Cursor): string | undefined {
  return take(cursor, /[A-Za-z_$][\w$]*/y)?.[0];
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

function readEscape(cursor: Cursor): string {
  const { text } = cursor;
  const letter = text.charAt(cursor.at++);
  if (Object.hasOwn(ESCAPES, letter)) return ESCAPES[letter] ?? '';
  const hex =
    letter === 'u'
      ? /\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{4})/y
      : letter === 'x'
        ? /([0-9a-fA-F]{2})/y
        : undefined;
  if (!hex) return letter === '\n' ? '' : letter;
  const match = take(cursor, hex);
  if (!match) fail(cursor, 'a broken \\u or \\x escape');
  return String.fromCodePoint(parseInt(match[1] ?? match[2] ?? '', 16));
}

function readString(cursor: Cursor): string {
  const quote = cursor.text.charAt(cursor.at++);
  let value = '';
  for (;;) {
    const ch = cursor.text.charAt(cursor.at);
    if (ch === '' || ch === '\n') fail(cursor, 'a string is not closed');
    cursor.at++;
    if (ch === quote) return value;
    value += ch === '\\' ? readEscape(cursor) : ch;
  }
}

function readNumber(cursor: Cursor): number {
  const match = take(cursor, /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y);
  if (!match) fail(cursor, 'a broken number');
  return Number(match[0]);
}

function readKey(cursor: Cursor): string {
  const ch = cursor.text.charAt(cursor.at);
  if (ch === '"' || ch === "'") return readString(cursor);
  if (/[-\d]/.test(ch)) return String(readNumber(cursor));
  const word = readWord(cursor);
  if (word === undefined) fail(cursor, `expected a property name, found ${shown(cursor)}`);
  return word;
}

function shown(cursor: Cursor): string {
  const ch = cursor.text.charAt(cursor.at);
  return ch === '' ? 'the end of the text' : `"${ch}"`;
}

/** After `[` or `{`: the items up to the closing bracket, a trailing comma allowed. */
function readItems(cursor: Cursor, close: string, readItem: () => void): void {
  cursor.at++;
  for (;;) {
    skipSpace(cursor);
    if (cursor.text.charAt(cursor.at) === close) break;
    readItem();
    skipSpace(cursor);
    const ch = cursor.text.charAt(cursor.at);
    if (ch === close) break;
    if (ch !== ',') fail(cursor, `expected "," or "${close}", found ${shown(cursor)}`);
    cursor.at++;
  }
  cursor.at++;
}

function readObject(cursor: Cursor): JsonObject {
  const entries: Array<[string, JsonValue]> = [];
  readItems(cursor, '}', () => {
    if (cursor.text.startsWith('...', cursor.at)) fail(cursor, 'a spread ("...") is not data');
    const key = readKey(cursor);
    skipSpace(cursor);
    if (cursor.text.charAt(cursor.at) !== ':') fail(cursor, `expected ":" after "${key}"`);
    cursor.at++;
    entries.push([key, readValue(cursor)]);
  });
  // fromEntries makes "__proto__" an own property, as JSON.parse does.
  return Object.fromEntries(entries);
}

function readArray(cursor: Cursor): JsonValue[] {
  const items: JsonValue[] = [];
  readItems(cursor, ']', () => items.push(readValue(cursor)));
  return items;
}

const LITERALS: Record<string, JsonValue> = { true: true, false: false, null: null };

function readValue(cursor: Cursor): JsonValue {
  skipSpace(cursor);
  const ch = cursor.text.charAt(cursor.at);
  let value: JsonValue;
  if (ch === '{') value = readObject(cursor);
  else if (ch === '[') value = readArray(cursor);
  else if (ch === '"' || ch === "'") value = readString(cursor);
  else if (/[-\d]/.test(ch)) value = readNumber(cursor);
  else {
    const start = cursor.at;
    const word = readWord(cursor);
    if (word === undefined || !Object.hasOwn(LITERALS, word)) {
      cursor.at = start;
      fail(cursor, word ? `"${word}" is not a plain value` : `unexpected ${shown(cursor)}`);
    }
    value = LITERALS[word] ?? null;
  }
  skipTypeCast(cursor);
  return value;
}

/** `{} as { events: ... }` and `satisfies ...`: TypeScript's types say nothing of the machine. */
function skipTypeCast(cursor: Cursor): void {
  skipSpace(cursor);
  const start = cursor.at;
  const word = readWord(cursor);
  if (word !== 'as' && word !== 'satisfies') {
    cursor.at = start;
    return;
  }
  let depth = 0;
  for (;;) {
    skipSpace(cursor);
    const ch = cursor.text.charAt(cursor.at);
    if (ch === '') fail(cursor, 'a type is not closed');
    if (depth === 0 && ',;)]}'.includes(ch)) return;
    if (ch === '"' || ch === "'") readString(cursor);
    else if (cursor.text.startsWith('=>', cursor.at)) cursor.at += 2;
    else {
      if ('([{<'.includes(ch)) depth++;
      else if (')]}>'.includes(ch)) depth--;
      cursor.at++;
    }
  }
}

/** The machine config the text holds, as data. */
function readConfig(text: string): JsonValue {
  const cursor: Cursor = { text, at: 0 };
  const call = /\bcreateMachine\s*\(/.exec(text);
  if (call) {
    cursor.at = call.index + call[0].length;
    return readValue(cursor);
  }
  skipSpace(cursor);
  if (text.charAt(cursor.at) !== '{')
    throw new ReadError(
      'The text is not JSON of a machine config (it should start with "{"), nor a module calling createMachine({ ... }).',
    );
  const value = readValue(cursor);
  skipSpace(cursor);
  if (cursor.at < text.length) fail(cursor, `unexpected ${shown(cursor)} after the machine config`);
  return value;
}

/** What a state may hold in XState that a workflow's flat, action-driven machine cannot. */
const UNSUPPORTED_STATE_KEYS: Record<string, string> = {
  states: "has states of its own: a workflow's states are flat",
  always: 'has "always" transitions: a status changes only through an action',
  invoke: "invokes actors: effects belong to the workflow's actions",
  entry: "has entry actions: effects belong to the workflow's actions",
  exit: "has exit actions: effects belong to the workflow's actions",
};

/** The state `meta` a workflow keeps (meta/workflow.schema.json allows no other). */
const KEPT_STATE_META = ['estimatedDays'];

const isEmpty = (value: JsonValue | undefined): boolean =>
  value === undefined ||
  value === null ||
  (Array.isArray(value) && value.length === 0) ||
  (isObject(value) && Object.keys(value).length === 0);

interface Scope {
  id: string;
  statuses: Set<string>;
}

function importTarget(
  value: JsonValue | undefined,
  where: string,
  scope: Scope,
): string | undefined {
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (single === undefined) return undefined;
  if (typeof single !== 'string')
    throw new ReadError(`${where} has a target that is not one status name.`);
  // Stately writes a target by id (`#machine.STATUS`) or as a child (`.STATUS`) at times.
  const byId = `#${scope.id}.`;
  const status = (single.startsWith(byId) ? single.slice(byId.length) : single).replace(/^\./, '');
  if (!scope.statuses.has(status))
    throw new ReadError(`${where} targets "${status}", which is not a state of the machine.`);
  return status;
}

function importGuard(value: JsonValue | undefined, where: string): MachineGuard | undefined {
  if (value === undefined) return undefined;
  const guard = guardOf(value);
  if (!guard || (isObject(value) && value.params !== undefined && !isObject(value.params)))
    throw new ReadError(`${where} has a guard that is neither a name nor { type, params }.`);
  return guard;
}

/** One transition: a lone one without a guard becomes the plain target, as the workflows write it. */
function importTransition(
  value: JsonValue,
  where: string,
  scope: Scope,
  inList: boolean,
): JsonValue {
  if (typeof value === 'string') return importTarget(value, where, scope) ?? value;
  if (!isObject(value)) throw new ReadError(`${where} is neither a status name nor a transition.`);
  if (value.cond !== undefined)
    throw new ReadError(`${where} uses "cond", XState 4's name for a guard: write "guard".`);
  if (!isEmpty(value.actions))
    throw new ReadError(`${where} has actions: effects belong to the workflow's actions.`);
  const target = importTarget(value.target, where, scope);
  const guard = importGuard(value.guard, where);
  if (guard === undefined && target !== undefined && !inList) return target;
  return { ...(target !== undefined && { target }), ...(guard !== undefined && { guard }) };
}

function importEvents(on: JsonValue, status: string, scope: Scope): JsonObject {
  if (!isObject(on)) throw new ReadError(`The "on" of state "${status}" is not an object.`);
  return Object.fromEntries(
    Object.entries(on).map(([action, transitions]) => {
      const where = `The action "${action}" of state "${status}"`;
      if (!Array.isArray(transitions))
        return [action, importTransition(transitions, where, scope, false)];
      if (transitions.length === 0) throw new ReadError(`${where} lists no transition.`);
      return [action, transitions.map((t) => importTransition(t, where, scope, true))];
    }),
  );
}

/** A state's timers (`after`): each a declared timer's name leading to one status, as `{target}`. */
function importAfter(after: JsonValue, status: string, scope: Scope): JsonObject {
  if (!isObject(after)) throw new ReadError(`The "after" of state "${status}" is not an object.`);
  return Object.fromEntries(
    Object.entries(after).map(([timer, transition]) => {
      const where = `The timer "${timer}" of state "${status}"`;
      if (!/^[a-z][a-zA-Z0-9]*$/.test(timer))
        throw new ReadError(
          `State "${status}" has a delayed ("after") transition of "${timer}": a timer is named (letters and digits) and declared in the workflow's "timers".`,
        );
      if (Array.isArray(transition))
        throw new ReadError(`${where} lists transitions: a timer leads to one status.`);
      const imported = importTransition(transition, where, scope, true);
      return [timer, isObject(imported) ? imported : { target: imported }];
    }),
  );
}

function importMeta(meta: JsonValue | undefined): JsonObject | undefined {
  if (!isObject(meta)) return undefined;
  const kept = KEPT_STATE_META.filter((key) => typeof meta[key] === 'number');
  return kept.length ? Object.fromEntries(kept.map((key) => [key, meta[key] ?? null])) : undefined;
}

function importState(state: JsonValue, status: string, scope: Scope): JsonObject {
  if (!isObject(state)) throw new ReadError(`State "${status}" is not an object.`);
  for (const [key, problem] of Object.entries(UNSUPPORTED_STATE_KEYS))
    if (!isEmpty(state[key])) throw new ReadError(`State "${status}" ${problem}.`);
  if (state.type !== undefined && state.type !== 'final' && state.type !== 'atomic')
    throw new ReadError(
      `State "${status}" is of type "${String(state.type)}": a workflow's states are simple or final.`,
    );
  const meta = importMeta(state.meta);
  return {
    ...(state.on !== undefined && { on: importEvents(state.on, status, scope) }),
    ...(!isEmpty(state.after) && { after: importAfter(state.after!, status, scope) }),
    ...(state.type === 'final' && { type: 'final' }),
    ...(typeof state.description === 'string' && { description: state.description }),
    ...(meta && { meta }),
  };
}

function importMachine(config: JsonValue): WorkflowMachine {
  if (!isObject(config)) throw new ReadError('The machine config is not an object.');
  if (!isObject(config.states) || Object.keys(config.states).length === 0)
    throw new ReadError('The machine has no states.');
  if (typeof config.id !== 'string' || config.id === '')
    throw new ReadError('The machine has no id.');
  if (typeof config.initial !== 'string')
    throw new ReadError('The machine names no initial state.');
  if (!Object.hasOwn(config.states, config.initial))
    throw new ReadError(`The initial state "${config.initial}" is not a state of the machine.`);
  if (!isEmpty(config.on))
    throw new ReadError(
      'The machine itself has transitions ("on" beside "states"): put each on the states it leaves.',
    );
  const scope: Scope = { id: config.id, statuses: new Set(Object.keys(config.states)) };
  const states = Object.fromEntries(
    Object.entries(config.states).map(([status, state]) => [
      status,
      importState(state, status, scope),
    ]),
  );
  return { id: config.id, initial: config.initial, states };
}

/** A workflow's machine from Stately's JSON or module text: targets and guards kept, the rest left out. */
export function machineFromStately(text: string): StatelyImport {
  try {
    const config = readConfig(text);
    return { machine: importMachine(config) };
  } catch (error) {
    if (error instanceof ReadError) return { error: error.message };
    throw error;
  }
}

// The workflow from Stately's editor: the machine, and the actions its transitions name.

/** What an import changes of the workflow besides its machine: actions declared and dropped. */
export interface StatelyWorkflowImport {
  workflow: WorkflowDefinition;
  /** Actions the machine names that the workflow did not declare: declared with their roles. */
  added: string[];
  /** Actions no status names any more: removed, and from the screens offering them. */
  removed: string[];
  /** Texts a new action's transitions carry in `meta.label` / `meta.labels` (by language). */
  labels: Record<string, Record<string, string>>;
}

interface EventMeta {
  /** Role suffixes, in the order the transitions name them. */
  roles: string[];
  /** Whether some transition of the event carries roles at all. */
  named: boolean;
  system: boolean;
  labels: Record<string, string>;
}

function metaOfEvent(
  transitions: JsonValue,
  where: string,
  rolePrefix: string,
  into: EventMeta,
): void {
  for (const transition of Array.isArray(transitions) ? transitions : [transitions]) {
    const meta = isObject(transition) && isObject(transition.meta) ? transition.meta : undefined;
    if (!meta) continue;
    if (meta.system === true) into.system = true;
    if (typeof meta.label === 'string') into.labels.en ??= meta.label;
    if (isObject(meta.labels))
      for (const [language, text] of Object.entries(meta.labels))
        if (typeof text === 'string') into.labels[language] ??= text;
    if (meta.roles === undefined) continue;
    if (!Array.isArray(meta.roles) || meta.roles.some((role) => typeof role !== 'string'))
      throw new ReadError(`${where} has "meta.roles" that is not a list of role names.`);
    into.named = true;
    for (const role of meta.roles as string[]) {
      if (!role.startsWith(rolePrefix) || role.length === rolePrefix.length)
        throw new ReadError(
          `${where} names the role "${role}": this workflow's roles start with "${rolePrefix}".`,
        );
      const suffix = role.slice(rolePrefix.length);
      if (!into.roles.includes(suffix)) into.roles.push(suffix);
    }
  }
}

/** Each event's roles, system flag and texts, gathered over every state's transitions. */
function eventMetas(config: JsonValue, rolePrefix: string): Map<string, EventMeta> {
  const metas = new Map<string, EventMeta>();
  const states = isObject(config) && isObject(config.states) ? config.states : {};
  for (const [status, state] of Object.entries(states))
    for (const [action, transitions] of eventsOf(state)) {
      const meta = metas.get(action) ?? { roles: [], named: false, system: false, labels: {} };
      metaOfEvent(transitions, `The action "${action}" of state "${status}"`, rolePrefix, meta);
      metas.set(action, meta);
    }
  return metas;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

/**
 * The workflow with the machine of Stately's text: an event no action declares becomes an
 * action with the roles its transitions' `meta.roles` name (required: a user action needs
 * someone allowed; `meta.system` makes it the server's), a declared action takes the roles the
 * transitions name when they name others, and an action no status names any more is removed.
 * What the workflow exports comes back unchanged.
 */
export function workflowFromStately(
  workflow: WorkflowDefinition,
  text: string,
): StatelyWorkflowImport | { error: string } {
  try {
    const config = readConfig(text);
    const machine = importMachine(config);
    const metas = eventMetas(config, workflow.rolePrefix);
    const actions: WorkflowDefinition['actions'] = {};
    const added: string[] = [];
    const labels: StatelyWorkflowImport['labels'] = {};
    for (const [action, meta] of metas) {
      const declared = declaredAction(workflow, action);
      if (declared) {
        actions[action] =
          meta.named && !sameList(meta.roles, declared.roles)
            ? { ...declared, roles: meta.roles }
            : declared;
        continue;
      }
      if (!/^[a-z][a-zA-Z-]*$/.test(action))
        throw new ReadError(
          `The action "${action}" is not a name an action can have: lower-case letters and dashes, starting with a letter.`,
        );
      if (meta.roles.length === 0)
        throw new ReadError(
          `The action "${action}" is new: give its transitions the roles allowed to take it, as meta: { roles: ["${workflow.rolePrefix}..."] }.`,
        );
      actions[action] = { roles: meta.roles, ...(meta.system && { system: true }) };
      added.push(action);
      if (Object.keys(meta.labels).length > 0) labels[action] = meta.labels;
    }
    // A timer's action is named by the workflow's timers, not by an event: it stays.
    const timed = new Set(Object.values(workflow.timers ?? {}).map((timer) => timer.action));
    for (const name of timed) {
      const declared = declaredAction(workflow, name);
      if (declared && !Object.hasOwn(actions, name)) actions[name] = declared;
    }
    // The declared actions keep the workflow's order; new ones follow.
    const ordered = Object.fromEntries([
      ...Object.keys(workflow.actions).flatMap((name) =>
        Object.hasOwn(actions, name) ? [[name, actions[name]] as const] : [],
      ),
      ...added.map((name) => [name, actions[name]] as const),
    ]) as WorkflowDefinition['actions'];
    const removed = Object.keys(workflow.actions).filter(
      (name) => !metas.has(name) && !timed.has(name),
    );
    return {
      workflow: withoutActions({ ...workflow, machine, actions: ordered }, removed),
      added,
      removed,
      labels,
    };
  } catch (error) {
    if (error instanceof ReadError) return { error: error.message };
    throw error;
  }
}
