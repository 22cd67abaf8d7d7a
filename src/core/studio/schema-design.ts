import { asNode, isNode, type Node } from '../definitions/json';
import type { JsonSchema, JsonValue } from '../definitions/types';
import { escapeSegment } from '../rules/registry';
import {
  FIELD_KINDS,
  isContainerKind,
  kindOf,
  kindSchema,
  kindUi,
  KIND_CONSTRAINTS,
  type FieldConstraints,
  type FieldKind,
} from './field-kinds';
import { valueAtPath } from './text-keys';

/** The kinds of field the form designer adds (field-kinds.ts). */
export const FORM_FIELD_TYPES = FIELD_KINDS;

/** How a condition compares the deciding field's value. */
export const CONDITION_OPERATORS = ['filled', 'equals', 'oneOf'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** A condition designed with choices: a field, an operator and the value(s) it compares with. */
export interface FieldCondition {
  /** A sibling field's name (required-when) or a document pointer (a section's condition). */
  field: string;
  operator: ConditionOperator;
  /** `equals`: one value; `oneOf`: several. Texts, as typed; typed by the field's schema. */
  values: string[];
}

/** A field to add to a section (or to a group or list of it) of a document's form. */
export interface FormFieldDesign extends FieldConstraints {
  /** Where: a section id, or a path of names to a group or list (`contact/address`). */
  section: string;
  name: string;
  type: FieldKind;
  required: boolean;
  /** Required only when another field of the same group holds a value (an `if`/`then`). */
  requiredWhen?: FieldCondition;
  labelEn: string;
  labelFr: string;
  helpEn?: string;
  helpFr?: string;
  /** Lists of the document's workflow that show the field as a column (sorted and filtered). */
  columnIn?: string[];
}

/**
 * The files a form change touches: the entity's definition and its two translation files; the
 * shared translations when a field brings its own message, the workflow when a list shows it.
 */
export interface FormFiles {
  entity: Node;
  en: Node;
  fr: Node;
  shared?: { en: Node; fr: Node };
  workflow?: Node;
}

interface Place {
  /** The object holding the fields (a section, a group, a list's items). */
  schema: Node;
  ui: Node;
  /** The names down to it, without list items: the texts' keys and the data's pointer. */
  names: string[];
  /** Whether the place is inside a list's items (no single pointer names its fields). */
  inList: boolean;
}

const pathOf = (place: string) => place.split('/').filter((name) => name !== '');

/** The object of fields at a place, creating the uiSchema on the way. */
function placeOf(files: FormFiles, place: string): Place {
  let schema = files.entity.schema as Node | undefined;
  let ui = (files.entity.uiSchema ??= {}) as Node;
  let inList = false;
  const names = pathOf(place);
  for (const name of names) {
    const properties = isNode(schema?.properties) ? schema.properties : undefined;
    schema = isNode(properties?.[name]) ? (properties[name] as Node) : undefined;
    ui = (ui[name] ??= {}) as Node;
    if (schema?.type === 'array' && isNode(schema.items)) {
      schema = schema.items;
      ui = (ui.items ??= {}) as Node;
      inList = true;
    }
  }
  if (!isNode(schema) || !isNode(schema.properties))
    throw new Error(`The form has no section "${place}" of fields`);
  return { schema, ui, names, inList };
}

/** The fields of a section (or group) in the order the form shows them. */
export function sectionFields(files: FormFiles, sectionId: string): string[] {
  const { schema, ui } = placeOf(structuredClone(files), sectionId);
  const names = Object.keys(schema.properties as Node);
  const order = Array.isArray(ui['ui:order']) ? (ui['ui:order'] as string[]) : [];
  return [
    ...order.filter((name) => names.includes(name)),
    ...names.filter((n) => !order.includes(n)),
  ];
}

/** The sections of the entity that hold fields (an object of properties). */
export function fieldSections(entity: Node): string[] {
  const properties = (entity.schema as Node | undefined)?.properties;
  if (!isNode(properties)) return [];
  return Object.entries(properties)
    .filter(([, value]) => isNode(value) && isNode(value.properties))
    .map(([id]) => id);
}

/**
 * Every place fields are added to: the sections of fields and of lists, and the groups and lists
 * within them, as paths (`contact`, `contact/address`, `previousSponsorships`).
 */
export function fieldPlaces(entity: Node): string[] {
  const places: string[] = [];
  const visit = (schema: unknown, ui: unknown, path: string[]) => {
    if (!isNode(schema)) return;
    const list = schema.type === 'array' && isNode(schema.items);
    const object = list ? (schema.items as Node) : schema;
    const objectUi = list ? asNode(asNode(ui)?.items) : asNode(ui);
    // Drawn whole by a widget (a file) or kept by the engine (an item's other languages).
    if (!isNode(object.properties) || objectUi?.['ui:widget'] !== undefined) return;
    if (path.at(-1) === 'i18n') return;
    if (path.length > 0) places.push(path.join('/'));
    for (const [name, child] of Object.entries(object.properties))
      visit(child, objectUi?.[name], [...path, name]);
  };
  visit(entity.schema, entity.uiSchema, []);
  return places;
}

/** The texts of a place, created as groups on the way (a plain label becomes the group's `_`). */
function textsAt(texts: Node, names: readonly string[]): Node {
  let node = texts;
  for (const name of names) {
    const current = node[name];
    node = isNode(current) ? current : (node[name] = { _: String(current ?? name) });
  }
  return node;
}

/**
 * The field's texts: its label and help; a group's title; an enumeration's value names. A plain
 * label is a text, anything more a group whose label is `_`.
 */
function fieldTexts(field: FormFieldDesign, language: 'en' | 'fr'): string | Node {
  const en = language === 'en';
  const label = (en ? field.labelEn : field.labelFr).trim();
  const help = (en ? field.helpEn : field.helpFr)?.trim();
  const group: Node = { _: label, ...(help && { help }) };
  if (field.type === 'enumeration')
    group.enum = Object.fromEntries(
      (field.options ?? []).map((o) => [o.value, (en ? o.labelEn : o.labelFr).trim()]),
    );
  return help || field.type === 'enumeration' || isContainerKind(field.type) ? group : label;
}

/** The data pointer of a field outside lists (`/contact/email`). */
const pointerOf = (names: readonly string[]) => `/${names.map(escapeSegment).join('/')}`;

/** The key of a field's own message (shared translations, `validation.` as the rules want). */
export const fieldMessageKey = (entity: string, names: readonly string[], rule: string) =>
  `validation.fields.${entity}.${names.join('.')}.${rule}`;

/** The shared text the document reference fields are refused with. */
export const DOCUMENT_UNKNOWN_KEY = 'validation.documentUnknown';
const DOCUMENT_UNKNOWN = {
  en: 'No document of this kind, in a status that allows it, has this number',
  fr: 'Aucun document de ce type, dans un état qui le permet, ne porte ce numéro',
};

/** Sets a text at a dotted key of a tree, creating its groups. */
function setKey(tree: Node, key: string, text: string): void {
  const parts = key.split('.');
  const last = parts.pop() as string;
  let node = tree;
  for (const part of parts) node = isNode(node[part]) ? node[part] : (node[part] = {});
  node[last] = text;
}

/** Removes a dotted key of a tree and the groups it leaves empty. */
function removeKey(tree: Node, parts: readonly string[]): void {
  const [head, ...rest] = parts;
  if (head === undefined || !(head in tree)) return;
  if (rest.length === 0) {
    delete tree[head];
    return;
  }
  const child = tree[head];
  if (!isNode(child)) return;
  removeKey(child, rest);
  if (Object.keys(child).length === 0) delete tree[head];
}

/** The value a condition compares with, typed as the deciding field holds it. */
function typed(schema: unknown, text: string): JsonValue {
  const type = isNode(schema) ? schema.type : undefined;
  if (type === 'boolean') return text === 'true';
  if ((type === 'number' || type === 'integer') && text.trim() !== '' && !isNaN(Number(text)))
    return Number(text);
  return text;
}

/** The schema a condition asks of the deciding field's value (an `if`'s property). */
function valueSchema(condition: FieldCondition, schema: unknown): JsonSchema | undefined {
  if (condition.operator === 'filled') return undefined;
  const values = condition.values.map((value) => typed(schema, value));
  return condition.operator === 'equals' ? { const: values[0] ?? '' } : { enum: values };
}

/** The `if`/`then` requiring `name` while the sibling field holds what the condition says. */
export function requiredWhenRule(place: Node, name: string, condition: FieldCondition): Node {
  const decider = (place.properties as Node)[condition.field];
  const value = valueSchema(condition, decider);
  return {
    if: {
      ...(value && { properties: { [condition.field]: value } }),
      required: [condition.field],
    },
    then: { required: [name] },
  };
}

/** Why a condition cannot be written: keys of `studio.form.problems`. */
export function conditionProblems(condition: FieldCondition | undefined): string[] {
  if (!condition) return [];
  if (!condition.field) return ['conditionField'];
  if (condition.operator !== 'filled' && condition.values.every((v) => v.trim() === ''))
    return ['conditionValue'];
  return [];
}

/** The files with a field added at the end of its section, with its labels and help. */
export function addField(files: FormFiles, field: FormFieldDesign): FormFiles {
  const next = structuredClone(files);
  const place = placeOf(next, field.section);
  const { schema, ui, names, inList } = place;
  const properties = schema.properties as Node;
  if (properties[field.name] !== undefined)
    throw new Error(`The section already has a field "${field.name}"`);
  const own = {
    ...field,
    ...(!KIND_CONSTRAINTS[field.type].includes('pattern') && { pattern: undefined }),
  };
  const property = kindSchema(field.type, own, field.required);
  const fieldNames = [...names, field.name];
  const entityId = String(next.entity.id ?? '');
  const rules = () => (next.entity.rules ??= []) as Node[];
  if (own.pattern) {
    // In a list no one pointer names the field: the schema's pattern, with the generic message.
    if (inList) property.pattern = own.pattern;
    else {
      const message = fieldMessageKey(entityId, fieldNames, 'pattern');
      rules().push({ rule: 'matches', path: pointerOf(fieldNames), pattern: own.pattern, message });
      sharedTexts(next, message, own.patternMessageEn, own.patternMessageFr);
    }
  }
  if (field.type === 'documentReference') {
    if (inList) throw new Error('A document reference cannot be in a list');
    rules().push({
      rule: 'documentReference',
      server: true,
      path: pointerOf(fieldNames),
      documentType: field.documentType ?? '',
      status: field.documentStatuses ?? [],
      message: DOCUMENT_UNKNOWN_KEY,
    });
    sharedTexts(next, DOCUMENT_UNKNOWN_KEY, DOCUMENT_UNKNOWN.en, DOCUMENT_UNKNOWN.fr, true);
  }
  properties[field.name] = property;
  if (field.required) schema.required = [...((schema.required as string[]) ?? []), field.name];
  else if (field.requiredWhen) {
    const rule = requiredWhenRule(schema, field.name, field.requiredWhen);
    schema.allOf = [...((schema.allOf as Node[]) ?? []), rule];
  }
  const order = sectionFields(files, field.section);
  ui['ui:order'] = [...order, field.name];
  const widget = kindUi(field.type, field);
  if (widget) ui[field.name] = widget;
  for (const language of ['en', 'fr'] as const)
    textsAt(next[language], names)[field.name] = fieldTexts(field, language);
  for (const list of field.columnIn ?? []) {
    if (inList) throw new Error('A field of a list cannot be a column');
    setColumn(next, fieldNames, list, true);
  }
  return next;
}

/** Writes a text of the shared translations in both languages (kept when `keep` and present). */
function sharedTexts(
  files: FormFiles,
  key: string,
  en: string | undefined,
  fr: string | undefined,
  keep = false,
): void {
  if (!files.shared) throw new Error('The shared translations are not in the draft');
  for (const [language, text] of [
    ['en', en],
    ['fr', fr],
  ] as const) {
    const tree = files.shared[language];
    if (keep && textAt(tree, key) !== undefined) continue;
    setKey(tree, key, (text ?? '').trim());
  }
}

/** The files with a field moved one place up (-1) or down (+1) in its section's order. */
export function moveField(
  files: FormFiles,
  sectionId: string,
  name: string,
  by: -1 | 1,
): FormFiles {
  const next = structuredClone(files);
  const order = sectionFields(files, sectionId);
  const at = order.indexOf(name);
  const to = at + by;
  if (at < 0 || to < 0 || to >= order.length) return files;
  [order[at], order[to]] = [order[to] as string, order[at] as string];
  placeOf(next, sectionId).ui['ui:order'] = order;
  return next;
}

/** Whether a schema (an `if`/`then` of the place) names the field. */
const names = (node: unknown, name: string): boolean =>
  JSON.stringify(node).includes(JSON.stringify(name));

/**
 * The files without a field: its schema, requirement (also the `if`/`then` naming it), widget,
 * order place, texts, its own rules and messages, and the list columns showing it.
 */
export function removeField(files: FormFiles, sectionId: string, name: string): FormFiles {
  const next = structuredClone(files);
  const { schema, ui, names: path } = placeOf(next, sectionId);
  delete (schema.properties as Node)[name];
  filterList<string>(schema, 'required', (n) => n !== name);
  filterList<Node>(schema, 'allOf', (rule) => !names(rule.if, name) && !names(rule.then, name));
  delete ui[name];
  if (Array.isArray(ui['ui:order']))
    ui['ui:order'] = (ui['ui:order'] as string[]).filter((n) => n !== name);
  for (const language of ['en', 'fr'] as const) {
    const texts = textsNode(next[language], path);
    if (texts) delete texts[name];
  }
  const pointer = pointerOf([...path, name]);
  if (Array.isArray(next.entity.rules)) {
    const own = (next.entity.rules as Node[]).filter((rule) => rule.path === pointer);
    filterList<Node>(next.entity, 'rules', (rule) => rule.path !== pointer);
    // The field's own messages go with it; shared ones (a document reference's) stay.
    for (const rule of own)
      if (next.shared && String(rule.message).startsWith('validation.fields.'))
        for (const language of ['en', 'fr'] as const)
          removeKey(next.shared[language], String(rule.message).split('.'));
  }
  for (const list of listsOf(next)) removeColumn(list, pointer);
  return next;
}

/** Sets a list of a node, or removes it when empty (as the files leave no empty list). */
function setList(node: Node, key: string, list: unknown[]): void {
  if (list.length > 0) node[key] = list;
  else delete node[key];
}

/** Keeps the items of a node's list that `keep` accepts: the list goes when none is left. */
function filterList<T>(node: Node, key: string, keep: (item: T) => boolean): void {
  if (Array.isArray(node[key])) setList(node, key, (node[key] as T[]).filter(keep));
}

/** The lists of the document's workflow (its finders), as written. */
function listsOf(files: FormFiles): Node[] {
  const lists = files.workflow?.lists;
  return Array.isArray(lists) ? (lists.filter(isNode) as Node[]) : [];
}

function removeColumn(list: Node, pointer: string): void {
  if (Array.isArray(list.columns))
    list.columns = (list.columns as Node[]).filter((column) => column.pointer !== pointer);
}

/** The lists of the workflow (id) showing the field at `place`/`name` as a column. */
export function columnLists(files: FormFiles, place: string, name: string): string[] {
  const pointer = pointerOf([...pathOf(place), name]);
  return listsOf(files)
    .filter((list) => (list.columns as Node[] | undefined)?.some((c) => c.pointer === pointer))
    .map((list) => String(list.id));
}

/** Shows (or stops showing) a field as a column of one of the workflow's lists. */
export function setFieldColumn(
  files: FormFiles,
  place: string,
  name: string,
  listId: string,
  shown: boolean,
): FormFiles {
  const next = structuredClone(files);
  if (placeOf(next, place).inList) throw new Error('A field of a list cannot be a column');
  setColumn(next, [...pathOf(place), name], listId, shown);
  return next;
}

function setColumn(files: FormFiles, names: string[], listId: string, shown: boolean): void {
  const list = listsOf(files).find((candidate) => candidate.id === listId);
  if (!list) throw new Error(`The workflow has no list "${listId}"`);
  const pointer = pointerOf(names);
  removeColumn(list, pointer);
  if (!shown) return;
  const columns = (list.columns ??= []) as Node[];
  const taken = new Set(columns.map((column) => String(column.field)));
  const name = names.at(-1) as string;
  let field = name;
  for (let i = names.length - 2; taken.has(field) && i >= 0; i--)
    field = `${names[i]}${field[0]?.toUpperCase()}${field.slice(1)}`;
  for (let n = 2; taken.has(field); n++) field = `${name}${n}`;
  // A field's texts are its label or a group with `_`: the column names the label itself.
  const key = `${String(files.entity.id)}.${names.join('.')}${isNode(valueAtPath(files.en, names)) ? '._' : ''}`;
  const ui = placeOf(files, names.slice(0, -1).join('/')).ui[name];
  const money = isNode(ui) && ui['ui:widget'] === 'money';
  // Before the last column that every document has (status, dates), where a reader looks for it.
  const at = columns.findIndex(
    (column) => column.pointer === undefined && column.field !== 'number',
  );
  const column = { field, pointer, label: key, ...(money && { format: 'money' }) };
  columns.splice(at < 0 ? columns.length : at, 0, column);
}

/** A section's condition (its `when`) as designed, undefined when it always applies. */
export function sectionCondition(entity: Node, sectionId: string): FieldCondition | undefined {
  const section = (entity.sections as Node[] | undefined)?.find((s) => s.id === sectionId);
  const when = isNode(section?.when) ? section.when : undefined;
  if (!when || typeof when.pointer !== 'string' || !Array.isArray(when.in)) return undefined;
  const values = (when.in as JsonValue[]).map(String);
  return { field: when.pointer, operator: values.length === 1 ? 'equals' : 'oneOf', values };
}

/** The schema at a data pointer of plain names (arrays' items not crossed), if any. */
function schemaAt(entity: Node, pointer: string): Node | undefined {
  let node: unknown = entity.schema;
  for (const name of pathOf(pointer)) {
    const properties = isNode(node) ? node.properties : undefined;
    node = isNode(properties) ? properties[name] : undefined;
  }
  return isNode(node) ? node : undefined;
}

/**
 * The files with a section shown only while a condition on another section's field holds (or
 * always, without one). A section the root requires is then required by a root `if`/`then` on
 * the same condition, as the checker asks (docs/forms.md, "Sections").
 */
export function setSectionCondition(
  files: FormFiles,
  sectionId: string,
  condition: FieldCondition | undefined,
): FormFiles {
  const next = structuredClone(files);
  const section = (next.entity.sections as Node[] | undefined)?.find((s) => s.id === sectionId);
  if (!section) throw new Error(`The form has no section "${sectionId}"`);
  if (!condition) {
    delete section.when;
    return next;
  }
  if (condition.operator === 'filled')
    throw new Error('A section is shown for given values of a field');
  if (condition.field.split('/')[1] === sectionId)
    throw new Error('A section cannot depend on its own fields');
  const decider = schemaAt(next.entity, condition.field);
  if (!decider) throw new Error(`The form has no field "${condition.field}"`);
  const values = condition.values.filter((v) => v.trim() !== '').map((v) => typed(decider, v));
  section.when = { pointer: condition.field, in: values };
  const root = next.entity.schema as Node;
  if (Array.isArray(root.required) && root.required.includes(sectionId)) {
    filterList<string>(root, 'required', (id) => id !== sectionId);
    root.allOf = [
      ...((root.allOf as Node[]) ?? []),
      { if: nestedCondition(pathOf(condition.field), values), then: { required: [sectionId] } },
    ];
  }
  return next;
}

/** `{properties: {a: {type: object, properties: {b: {enum}}, required: [b]}}, required: [a]}` for `/a/b`. */
function nestedCondition(names: readonly string[], values: JsonValue[], root = true): Node {
  const [head, ...rest] = names;
  if (head === undefined) return values.length === 1 ? { const: values[0] } : { enum: values };
  return {
    ...(!root && { type: 'object' }),
    properties: { [head]: nestedCondition(rest, values, false) },
    required: [head],
  };
}

/** A field that can decide a condition: its pointer, schema and place. */
export interface DecidingField {
  pointer: string;
  /** The field's name in its place. */
  name: string;
  schema: Node;
}

/** The fields of a place that can decide another's requirement: the place's own plain values. */
export function siblingFields(files: FormFiles, place: string): DecidingField[] {
  const { schema, names } = placeOf(structuredClone(files), place);
  return Object.entries(schema.properties as Node)
    .filter(([, child]) => isNode(child) && child.type !== 'object' && child.type !== 'array')
    .map(([name, child]) => ({
      pointer: pointerOf([...names, name]),
      name,
      schema: child as Node,
    }));
}

/** The fields of the other sections (not in lists) that can decide whether a section applies. */
export function decidingFields(entity: Node, sectionId: string): DecidingField[] {
  const found: DecidingField[] = [];
  const visit = (schema: unknown, names: string[]) => {
    if (!isNode(schema)) return;
    if (isNode(schema.properties)) {
      for (const [name, child] of Object.entries(schema.properties)) visit(child, [...names, name]);
      return;
    }
    if (schema.type === 'array' || names.length < 2) return;
    found.push({ pointer: pointerOf(names), name: names.at(-1) as string, schema });
  };
  visit(entity.schema, []);
  return found.filter((field) => field.pointer.split('/')[1] !== sectionId);
}

/** The files of the draft's form: a list's `lists` ids with their menu texts' keys. */
export function workflowLists(files: FormFiles): Array<{ id: string; label: string }> {
  return listsOf(files).map((list) => ({
    id: String(list.id),
    label: String(list.label ?? list.id),
  }));
}

/** A definition's file text as the repository writes it: two spaces, a final newline. */
export function fileText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Whether two JSON values are the same (objects' keys in any order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => sameJson(item, b[i]))
    );
  if (isNode(a) && isNode(b)) {
    const keys = Object.keys(a).filter((key) => a[key] !== undefined);
    return (
      keys.length === Object.keys(b).filter((key) => b[key] !== undefined).length &&
      keys.every((key) => key in b && sameJson(a[key], b[key]))
    );
  }
  return a === b;
}

/** The text at a dotted key of a tree, if it is one. */
const textAt = (tree: Node | undefined, key: string): string | undefined => {
  const value = valueAtPath(tree, key.split('.'));
  return typeof value === 'string' ? value : undefined;
};

/** The condition of an `if`/`then` as `requiredWhenRule` writes it, for `name`. */
function conditionOf(rule: Node, name: string): FieldCondition | undefined {
  const then = asNode(rule.then);
  const when = asNode(rule.if);
  if (!then || !when || !sameJson(then, { required: [name] })) return undefined;
  const required = when.required;
  if (!Array.isArray(required) || required.length !== 1 || typeof required[0] !== 'string')
    return undefined;
  const field = required[0];
  const value = asNode(asNode(when.properties)?.[field]);
  if (!value) return { field, operator: 'filled', values: [] };
  if ('const' in value) return { field, operator: 'equals', values: [String(value.const)] };
  if (Array.isArray(value.enum))
    return { field, operator: 'oneOf', values: value.enum.map((v) => String(v)) };
  return undefined;
}

/** A field as the designer would have written it, without checking that it was (see below). */
function readFieldDesign(
  files: FormFiles,
  section: string,
  name: string,
): FormFieldDesign | undefined {
  let place: Place;
  try {
    place = placeOf(structuredClone(files), section);
  } catch {
    return undefined;
  }
  const { schema, ui, names, inList } = place;
  const property = asNode((schema.properties as Node)[name]);
  const fieldUi = asNode(ui[name]);
  const type = kindOf(property, fieldUi);
  if (!property || !type) return undefined;
  const pointer = pointerOf([...names, name]);
  const rules = Array.isArray(files.entity.rules) ? (files.entity.rules as Node[]) : [];
  const own = (kind: string) => rules.find((rule) => rule.path === pointer && rule.rule === kind);
  const required = Array.isArray(schema.required) && schema.required.includes(name);
  const design: FormFieldDesign = {
    section,
    name,
    type,
    required,
    labelEn: '',
    labelFr: '',
  };
  const number = (key: string) =>
    typeof property[key] === 'number' ? (property[key] as number) : undefined;
  const asks = KIND_CONSTRAINTS[type];
  if (asks.includes('length')) {
    const minLength = number('minLength');
    // A required text's one character at least is the requirement's, not a designed length.
    if (!(required && minLength === 1)) design.minLength = minLength;
    design.maxLength = number('maxLength');
  }
  if (asks.includes('bounds')) {
    design.minimum = number('minimum');
    design.maximum = number('maximum');
    design.integer = property.type === 'integer';
  }
  if (asks.includes('items')) {
    design.minItems = number('minItems');
    design.maxItems = number('maxItems');
  }
  if (asks.includes('pattern')) {
    const matches = own('matches');
    if (inList && typeof property.pattern === 'string') design.pattern = property.pattern;
    else if (matches && typeof matches.pattern === 'string') {
      design.pattern = matches.pattern;
      const key = String(matches.message);
      design.patternMessageEn = textAt(files.shared?.en, key);
      design.patternMessageFr = textAt(files.shared?.fr, key);
    }
  }
  if (type === 'catalog') {
    const catalog = asNode(fieldUi?.['ui:options'])?.catalog;
    if (typeof catalog === 'string') design.catalog = catalog;
    design.maxLength = number('maxLength');
  }
  if (type === 'documentReference') {
    const reference = own('documentReference');
    if (!reference) return undefined;
    design.documentType = String(reference.documentType ?? '');
    design.documentStatuses = Array.isArray(reference.status) ? reference.status.map(String) : [];
  }
  for (const language of ['en', 'fr'] as const) {
    const own = textsNode(files[language], names)?.[name];
    const node = asNode(own);
    const text = typeof own === 'string' ? own : typeof node?._ === 'string' ? node._ : undefined;
    const help = typeof node?.help === 'string' ? node.help : undefined;
    if (text === undefined) return undefined;
    design[language === 'en' ? 'labelEn' : 'labelFr'] = text;
    if (help !== undefined) design[language === 'en' ? 'helpEn' : 'helpFr'] = help;
  }
  if (type === 'enumeration') {
    const names = (language: 'en' | 'fr') =>
      asNode(valueAtPath(files[language], [...place.names, name, 'enum']));
    const values = Array.isArray(property.enum) ? property.enum : [];
    if (values.some((value) => typeof value !== 'string')) return undefined;
    design.options = (values as string[]).map((value) => ({
      value,
      labelEn: String(names('en')?.[value] ?? ''),
      labelFr: String(names('fr')?.[value] ?? ''),
    }));
  }
  if (!required && Array.isArray(schema.allOf))
    for (const rule of schema.allOf as Node[]) {
      const condition = isNode(rule) ? conditionOf(rule, name) : undefined;
      if (condition) {
        design.requiredWhen = condition;
        break;
      }
    }
  design.columnIn = inList ? [] : columnLists(files, section, name);
  // Constraints left unset are not in the design, as the form leaves them.
  for (const key of Object.keys(design) as Array<keyof FormFieldDesign>)
    if (design[key] === undefined) delete design[key];
  return design;
}

/**
 * A field read back as the designer's design, to change it with the same form as to add one.
 * Undefined when the designer does not know its kind, or would not write it back exactly: its
 * schema or widget carries more than the designer writes (a title, a default, options of the
 * widget, a pattern of a kind that asks for none), its message has another key, another rule
 * of its own names it, or its texts are missing. Such a field stays changeable in the JSON: what
 * `changeField` writes for the design read is checked to be the files as they are, so nothing
 * the designer does not know is lost by a change.
 */
export function fieldDesignOf(
  files: FormFiles,
  section: string,
  name: string,
): FormFieldDesign | undefined {
  const design = readFieldDesign(files, section, name);
  if (!design) return undefined;
  try {
    return sameJson(changeField(files, design), files) ? design : undefined;
  } catch {
    return undefined;
  }
}

/** The kinds of rule the designer writes for a field (`addField`): a change rewrites them. */
const DESIGNED_RULES = new Set(['matches', 'documentReference']);

/** Puts the keys of every object of `node` in the order of the same object of `like`. */
function orderLike(node: unknown, like: unknown): void {
  if (Array.isArray(node) && Array.isArray(like)) {
    node.forEach((item, i) => orderLike(item, like[i]));
    return;
  }
  if (!isNode(node) || !isNode(like)) return;
  const keys = [
    ...Object.keys(like).filter((key) => key in node),
    ...Object.keys(node).filter((key) => !(key in like)),
  ];
  const entries = keys.map((key) => [key, node[key]] as const);
  for (const key of Object.keys(node)) delete node[key];
  for (const [key, value] of entries) {
    node[key] = value;
    orderLike(value, like[key]);
  }
}

/** The texts node of a place, if there is one (nothing created). */
const textsNode = (texts: Node, names: readonly string[]) => asNode(valueAtPath(texts, names));

/**
 * The files with a field changed as designed: its schema, widget, own rules and messages, texts,
 * requirement and columns replaced wholly, the field kept at its place in the order (and in the
 * files: its key, its rules', its requirement's and its columns' places). Its name and section
 * stay. A group or list that stays one keeps the fields it holds. What the designer does not
 * write stays as it is: its rules of other kinds (a date in the past, a bound) with their
 * messages, and the `if`s of other fields' requirements it decides. A kind changed may leave
 * such a rule, or stored documents, at odds with it: the check and the publish say so.
 */
export function changeField(files: FormFiles, design: FormFieldDesign): FormFiles {
  const { section, name } = design;
  const before = structuredClone(files);
  const old = placeOf(before, section);
  const oldProperty = (old.schema.properties as Node)[name];
  if (oldProperty === undefined) throw new Error(`The section has no field "${name}"`);
  const oldKind = kindOf(oldProperty, old.ui[name]);
  const pointer = pointerOf([...old.names, name]);
  const oldRules = Array.isArray(files.entity.rules) ? (files.entity.rules as Node[]) : [];
  const ownRule = (rule: unknown) => isNode(rule) && conditionOf(rule, name) !== undefined;
  const oldAllOf = Array.isArray(old.schema.allOf) ? (old.schema.allOf as unknown[]) : undefined;
  const oldColumns = new Map(
    listsOf(before).map((list) => {
      const columns = Array.isArray(list.columns) ? (list.columns as Node[]) : [];
      const at = columns.findIndex((column) => column.pointer === pointer);
      return [String(list.id), { at, column: columns[at] }] as const;
    }),
  );

  let next = removeField(files, section, name);
  next = addField(next, { ...design, columnIn: [] });
  const place = placeOf(next, section);
  const { schema, ui, names } = place;
  const properties = schema.properties as Node;
  const keep = isContainerKind(design.type) && design.type === oldKind;

  // A group or list that stays one keeps what it holds; a list its designed number of items.
  if (keep) {
    const kept = structuredClone(oldProperty) as Node;
    if (design.type === 'list')
      for (const key of ['minItems', 'maxItems'] as const)
        if (design[key] === undefined) delete kept[key];
        else kept[key] = design[key];
    properties[name] = kept;
    if (old.ui[name] !== undefined) ui[name] = structuredClone(old.ui[name]);
    for (const language of ['en', 'fr'] as const) {
      const oldTexts = asNode(textsNode(before[language], old.names)?.[name]);
      const texts = textsNode(next[language], names);
      const own = asNode(texts?.[name]);
      if (!oldTexts || !texts || !own) continue;
      const merged: Node = {};
      for (const [key, value] of Object.entries(oldTexts))
        if (key === '_') merged._ = own._;
        else if (key === 'help') {
          if (own.help !== undefined) merged.help = own.help;
        } else merged[key] = value;
      if (own.help !== undefined) merged.help = own.help;
      texts[name] = merged;
    }
  }

  // Its places: the order, its requirement's among the others.
  if ('ui:order' in old.ui) ui['ui:order'] = structuredClone(old.ui['ui:order']);
  else delete ui['ui:order'];
  if (Array.isArray(schema.required) && Array.isArray(old.schema.required)) {
    const at = (old.schema.required as string[]).indexOf(name);
    const required = (schema.required as string[]).filter((n) => n !== name);
    if (design.required) required.splice(at < 0 ? required.length : at, 0, name);
    setList(schema, 'required', required);
  }
  if (oldAllOf) {
    // The rules naming the field only in their `if` (another's requirement) stay as they were.
    const rule = Array.isArray(schema.allOf)
      ? (schema.allOf as unknown[]).find((r) => ownRule(r))
      : undefined;
    const at = oldAllOf.findIndex((r) => ownRule(r));
    const allOf = oldAllOf.filter((r) => !ownRule(r)).map((r) => structuredClone(r));
    if (rule) allOf.splice(at < 0 ? allOf.length : at, 0, rule);
    setList(schema, 'allOf', allOf);
  }

  // The rules the designer writes for it (a pattern's, a document's) where they were; the
  // others of its own (a date in the past, a bound) stay as written, with their messages.
  if (oldRules.some((rule) => rule.path === pointer)) {
    const written = Array.isArray(next.entity.rules) ? (next.entity.rules as Node[]) : [];
    const designed = written.filter((rule) => rule.path === pointer);
    const rules: Node[] = [];
    let placed = false;
    for (const rule of oldRules)
      if (rule.path !== pointer || !DESIGNED_RULES.has(String(rule.rule)))
        rules.push(structuredClone(rule));
      else if (!placed) {
        rules.push(...designed);
        placed = true;
      }
    if (!placed) rules.push(...designed);
    setList(next.entity, 'rules', rules);
    for (const rule of oldRules) {
      const key = String(rule.message);
      if (rule.path !== pointer || DESIGNED_RULES.has(String(rule.rule))) continue;
      if (!next.shared || !key.startsWith('validation.fields.')) continue;
      for (const language of ['en', 'fr'] as const) {
        const text = textAt(files.shared?.[language], key);
        if (text !== undefined) setKey(next.shared[language], key, text);
      }
    }
  }

  // Its columns: where they were, in the lists still showing it; added to the others.
  if (place.inList ? (design.columnIn ?? []).length > 0 : false)
    throw new Error('A field of a list cannot be a column');
  for (const listId of design.columnIn ?? []) {
    const was = oldColumns.get(listId);
    const list = listsOf(next).find((candidate) => candidate.id === listId);
    if (!was?.column || !list) {
      setColumn(next, [...names, name], listId, true);
      continue;
    }
    const column = structuredClone(was.column);
    if (design.type === 'money') column.format = 'money';
    else if (column.format === 'money') delete column.format;
    // The column names the label: a plain text, or a group's `_` when the field has a help.
    const base = `${String(next.entity.id)}.${[...names, name].join('.')}`;
    if (column.label === base || column.label === `${base}._`)
      column.label = isNode(textsNode(next.en, names)?.[name]) ? `${base}._` : base;
    const columns = (list.columns ??= []) as Node[];
    columns.splice(Math.min(was.at, columns.length), 0, column);
  }

  // The uiSchema's places created on the way and left empty go, as they were not there.
  pruneUi(next.entity, files.entity, pathOf(section));
  // The keys in the files' order, the field's own where it was: the same text where nothing changed.
  orderLike(next, files);
  return next;
}

/** Removes the uiSchema nodes down to a place that are empty and that `before` did not have. */
function pruneUi(entity: Node, before: Node, names: readonly string[]): void {
  const steps: Array<{ parent: Node; key: string; had: boolean }> = [];
  let node = asNode(entity.uiSchema);
  let old: unknown = before.uiSchema;
  let schema = asNode(entity.schema);
  steps.push({ parent: entity, key: 'uiSchema', had: old !== undefined });
  for (const name of names) {
    if (!node) break;
    schema = asNode(asNode(schema?.properties)?.[name]);
    steps.push({ parent: node, key: name, had: asNode(old)?.[name] !== undefined });
    node = asNode(node[name]);
    old = asNode(old)?.[name];
    if (schema?.type === 'array' && node) {
      schema = asNode(schema.items);
      steps.push({ parent: node, key: 'items', had: asNode(old)?.items !== undefined });
      node = asNode(node.items);
      old = asNode(old)?.items;
    }
  }
  for (const { parent, key, had } of steps.reverse()) {
    const value = asNode(parent[key]);
    if (had || !value || Object.keys(value).length > 0) return;
    delete parent[key];
  }
}
