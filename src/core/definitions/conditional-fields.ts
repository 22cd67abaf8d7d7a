import { resolvePointer } from '../rules/registry';
import type { JsonSchema, JsonValue, SectionCondition } from './types';
import { asNode, type Node } from './json';
import { walkUi } from './ui-walk';

/** A field that applies only sometimes (`ui:options.when`; docs/forms.md, "Fields that apply only sometimes"). */
export interface ConditionalField {
  /** Where the field is: pointer segments, `*` for every item of an array. */
  segments: string[];
  when: SectionCondition;
}

/** A `ui:options.when` as given, when it has the shape of a condition. */
export function fieldCondition(ui: unknown): SectionCondition | undefined {
  const when = asNode(asNode(asNode(ui)?.['ui:options'])?.when);
  if (!when || typeof when.pointer !== 'string' || !Array.isArray(when.in)) return undefined;
  return { pointer: when.pointer, in: when.in as JsonValue[] };
}

type FormEntity = { schema: JsonSchema; uiSchema?: JsonSchema };

const found = new WeakMap<object, ConditionalField[]>();

/** The conditional fields of an entity, walking its schema and uiSchema together. */
export function conditionalFieldsOf(entity: FormEntity): ConditionalField[] {
  const ui = entity.uiSchema;
  if (!ui) return [];
  const known = found.get(ui);
  if (known) return known;
  const fields: ConditionalField[] = [];
  walkUi(entity.schema, ui, (_schema, node, segments) => {
    const when = fieldCondition(node);
    if (when && segments.length > 0 && segments.at(-1) !== '*') fields.push({ segments, when });
  });
  found.set(ui, fields);
  return fields;
}

/** Whether a condition holds on the document: the value at its pointer is one of `in`. */
export function conditionHolds(condition: SectionCondition, data: unknown): boolean {
  const value = resolvePointer(data, condition.pointer) as JsonValue | undefined;
  return value !== undefined && condition.in.some((allowed) => allowed === value);
}

/** Whether the field at `pointer` (list items by index) applies to the document as it stands. */
export function fieldApplies(entity: FormEntity, pointer: string, data: unknown): boolean {
  const segments = pointer.split('/').slice(1);
  const field = conditionalFieldsOf(entity).find(
    (candidate) =>
      candidate.segments.length === segments.length &&
      candidate.segments.every(
        (s, i) => s === segments[i] || (s === '*' && /^\d+$/.test(segments[i] ?? '')),
      ),
  );
  return !field || conditionHolds(field.when, data);
}

/** The pointers of the fields the document holds that do not apply to it. */
export function inapplicableFields(entity: FormEntity, data: unknown): string[] {
  const pointers: string[] = [];
  for (const field of conditionalFieldsOf(entity)) {
    if (conditionHolds(field.when, data)) continue;
    const expand = (node: unknown, segments: readonly string[], at: string): void => {
      const [head, ...rest] = segments;
      if (head === undefined) return;
      if (head === '*') {
        if (Array.isArray(node)) node.forEach((item, i) => expand(item, rest, `${at}/${i}`));
        return;
      }
      const record = asNode(node);
      if (!record || !(head in record)) return;
      if (rest.length === 0) pointers.push(`${at}/${head}`);
      else expand(record[head], rest, `${at}/${head}`);
    };
    expand(data, field.segments, '');
  }
  return pointers;
}

/** The data without the values at `pointers`: copied along each path, the rest shared. */
export function withoutValuesAt<T>(data: T, pointers: readonly string[]): T {
  let result: unknown = data;
  for (const pointer of pointers) result = removeAt(result, pointer.split('/').slice(1));
  return result as T;
}

function removeAt(node: unknown, segments: readonly string[]): unknown {
  const [head, ...rest] = segments;
  if (head === undefined) return node;
  if (Array.isArray(node)) {
    const index = Number(head);
    if (!Number.isInteger(index) || index >= node.length || rest.length === 0) return node;
    const copy = [...(node as unknown[])];
    copy[index] = removeAt(copy[index], rest);
    return copy;
  }
  const record = asNode(node);
  if (!record || !(head in record)) return node;
  const copy: Node = { ...record };
  if (rest.length === 0) delete copy[head];
  else copy[head] = removeAt(record[head], rest);
  return copy;
}
