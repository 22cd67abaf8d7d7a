/** The registry of named synchronous rules (docs/forms.md, "Rules"), run by browser and server. */
import type { RuleCheck, RuleProblem, RuleUse } from './types';

export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

const itemCount =
  (fits: (count: number, limit: number) => boolean): RuleCheck =>
  (value, use) => {
    const limit = finite(use.limit);
    return !Array.isArray(value) || limit === undefined || fits(value.length, limit);
  };

/** With `when`, only the items whose flag of that name is true count (mandatory files). */
const counted = (item: unknown, use: RuleUse): boolean =>
  typeof use.when !== 'string' || (item as Record<string, unknown> | null)?.[use.when] === true;

const allAnswered: RuleCheck = (value, use) => {
  if (!Array.isArray(value)) return true;
  const field = typeof use.field === 'string' ? use.field : undefined;
  return value.every((item) => {
    if (!counted(item, use)) return true;
    const answer: unknown =
      field === undefined
        ? item
        : typeof item === 'object' && item !== null
          ? (item as Record<string, unknown>)[field]
          : undefined;
    return !isEmpty(answer);
  });
};

/** A check of a date's day (`YYYY-MM-DD`) against today's (UTC, as the server stores dates). */
const dayCheck =
  (fits: (day: string, today: string) => boolean): RuleCheck =>
  (value) =>
    typeof value !== 'string' ||
    value === '' ||
    fits(value.slice(0, 10), new Date().toISOString().slice(0, 10));

/** The number at a pointer of the document; undefined when it is not a finite number. */
function numberAt(document: unknown, pointer: unknown): number | undefined {
  return typeof pointer === 'string' ? finite(resolvePointer(document, pointer)) : undefined;
}

/** The amount (the value, or the `sum` of pointers) does not exceed the number at `bound`; passes while one is missing. */
const notAbove: RuleCheck = (value, use, document) => {
  const own = finite(value);
  let amount = own;
  if (Array.isArray(use.sum)) {
    amount = 0;
    for (const pointer of use.sum) {
      const part = numberAt(document, pointer);
      if (part === undefined) return true;
      amount += part;
    }
  }
  const bound = use.bound === undefined ? own : numberAt(document, use.bound);
  if (amount === undefined || bound === undefined) return true;
  if (use.zeroUnbounded === true && bound === 0) return true;
  return use.strict === true ? amount < bound : amount <= bound;
};

/** A pattern as a RegExp (as Ajv reads `pattern`); undefined when it is no valid expression. */
export function regExpOf(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/** A text matches `pattern` (a field's own format, with its own `message`); an empty one passes. */
const matches: RuleCheck = (value, use) =>
  typeof value !== 'string' ||
  value === '' ||
  typeof use.pattern !== 'string' ||
  (regExpOf(use.pattern)?.test(value) ?? true);

const registry = new Map<string, RuleCheck>([
  ['minItems', itemCount((count, limit) => count >= limit)],
  ['maxItems', itemCount((count, limit) => count <= limit)],
  ['allAnswered', allAnswered],
  ['accepted', (value) => value === true],
  // A date that has happened (a birth, a passport's issue): not after today.
  ['pastDate', dayCheck((day, today) => day <= today)],
  // A date still to come (a passport's expiry): after today.
  ['futureDate', dayCheck((day, today) => day > today)],
  ['notAbove', notAbove],
  ['matches', matches],
]);

/** Rules that ask for an answer: their section is required while the rule asks. */
const asking = new Map<string, (value: unknown, use: RuleUse) => boolean>([
  ['accepted', () => true],
  ['allAnswered', (value, use) => Array.isArray(value) && value.some((i) => counted(i, use))],
]);

/** Whether a use asks for an answer in the document (see `asking`); server rules never do. */
export function asksForAnswer(use: RuleUse, document: unknown): boolean {
  if (use.server) return false;
  return asking.get(use.rule)?.(resolvePointer(document, use.path), use) ?? false;
}

/** Adds (or replaces) a named rule; returns a function that removes it again. */
export function registerRule(name: string, check: RuleCheck): () => void {
  const previous = registry.get(name);
  registry.set(name, check);
  return () => {
    if (previous) registry.set(name, previous);
    else registry.delete(name);
  };
}

/** The uses whose rule is not registered: the server refuses definitions naming them. */
export function unknownRules(uses: readonly RuleUse[]): RuleUse[] {
  return uses.filter((use) => !use.server && !registry.has(use.rule));
}

/** Escapes a property name as one JSON pointer segment (`~` is `~0`, `/` is `~1`). */
export function escapeSegment(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Unescapes one JSON pointer segment (`~1` is `/`, `~0` is `~`). */
export function unescapeSegment(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The value at a JSON pointer (`''` or `/` is the document itself); undefined when absent. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return document;
  let node: unknown = document;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = unescapeSegment(raw);
    if (Array.isArray(node)) {
      const index = Number(key);
      if (!Number.isInteger(index)) return undefined;
      node = node[index];
    } else if (typeof node === 'object' && node !== null) {
      if (!Object.hasOwn(node, key)) return undefined;
      node = (node as Record<string, unknown>)[key];
    } else return undefined;
  }
  return node;
}

/** Writes `value` at a pointer of plain names, creating the objects on the way. */
export function setAt(data: Record<string, unknown>, pointer: string, value: unknown): void {
  const parts = pointer.split('/').slice(1).map(unescapeSegment);
  const last = parts.pop();
  if (last === undefined) return;
  let node = data;
  for (const part of parts) {
    const next = node[part];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[last] = value;
}

/** The parameters of a use, as placed into its message (`{{limit}}`, `{{field}}`...). */
export function paramsOf(use: RuleUse): Record<string, unknown> {
  const { rule: _rule, path: _path, message: _message, server: _server, ...params } = use;
  return params;
}

/** Runs every use on the document; an unknown rule is a problem too. */
export function runRules(uses: readonly RuleUse[], document: unknown): RuleProblem[] {
  const fails = (use: RuleUse) =>
    !use.server && !registry.get(use.rule)?.(resolvePointer(document, use.path), use, document);
  return uses.filter(fails).map((use) => ({
    path: use.path,
    rule: use.rule,
    message: use.message ?? `validation.${use.rule}`,
    params: paramsOf(use),
  }));
}
