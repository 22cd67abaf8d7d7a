import type { Node } from '../definitions/json';
import type { JsonSchema } from '../definitions/types';

/**
 * The kinds of field the form designer adds: each one a JSON Schema shape and a widget the
 * engine already draws (docs/forms.md, "Widgets"), so a kind is data, never new engine code.
 */
export const FIELD_KINDS = [
  'text',
  'longText',
  'number',
  'money',
  'date',
  'dateTime',
  'yesNo',
  'enumeration',
  'catalog',
  'documentReference',
  'file',
  'phone',
  'email',
  'group',
  'list',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** A value of an enumeration with its name in both languages. */
export interface EnumerationOption {
  value: string;
  labelEn: string;
  labelFr: string;
}

/** The constraints a kind may take; each kind shows only its own (`KIND_CONSTRAINTS`). */
export interface FieldConstraints {
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** A number without decimals. */
  integer?: boolean;
  /** A regular expression the text must match, with its own message in both languages. */
  pattern?: string;
  patternMessageEn?: string;
  patternMessageFr?: string;
  /** `enumeration`: its values, in the order offered. */
  options?: EnumerationOption[];
  /** `catalog`: the catalogue whose entries are offered. */
  catalog?: string;
  /** `documentReference`: the type of the document named, and the statuses it must be in. */
  documentType?: string;
  documentStatuses?: string[];
  /** `list`: how many items at least and at most. */
  minItems?: number;
  maxItems?: number;
}

export type Constraint =
  'length' | 'bounds' | 'integer' | 'pattern' | 'options' | 'catalog' | 'document' | 'items';

/** The constraints the designer asks for, by kind. */
export const KIND_CONSTRAINTS: Readonly<Record<FieldKind, readonly Constraint[]>> = {
  text: ['length', 'pattern'],
  longText: ['length', 'pattern'],
  number: ['bounds', 'integer'],
  money: [],
  date: [],
  dateTime: [],
  yesNo: [],
  enumeration: ['options'],
  catalog: ['catalog'],
  documentReference: ['document'],
  file: [],
  phone: [],
  email: [],
  group: [],
  list: ['items'],
};

/** Groups and lists hold fields of their own, added to them as to a section. */
export const isContainerKind = (kind: FieldKind) => kind === 'group' || kind === 'list';

/** The mobile number pattern the definitions share (a named pattern: its own message). */
export const PHONE_PATTERN = '^\\+?[0-9 ()-]{6,20}$';
/** An amount as the money widget keeps it: digits and two decimals. */
export const MONEY_PATTERN = '^\\d+(\\.\\d{2})?$';

/** The file field's value: what the upload gave, never the content (docs/forms.md, "Uploads"). */
const FILE_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'string', maxLength: 64 },
    name: { type: 'string', maxLength: 255 },
    size: { type: 'integer', minimum: 0, maximum: 104857600 },
    type: { type: 'string', maxLength: 100 },
  },
  required: ['id', 'name', 'size', 'type'],
};

/** A schema without the constraints left unset. */
const defined = (value: Record<string, JsonSchema[string] | undefined>): JsonSchema =>
  Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, JsonSchema[string]] => entry[1] !== undefined,
    ),
  );

/** A text's schema: its lengths (at least one character when required). */
function textSchema(c: FieldConstraints, required: boolean, longest: number): JsonSchema {
  const minLength = c.minLength ?? (required ? 1 : undefined);
  return defined({ type: 'string', minLength, maxLength: c.maxLength ?? longest });
}

/**
 * The JSON Schema of a field of this kind. A pattern with its own message is not here: it is a
 * `matches` rule of the entity, which carries the message (see `schema-design.ts`).
 */
export const kindSchema = (kind: FieldKind, c: FieldConstraints, required: boolean): JsonSchema =>
  KIND_SCHEMAS[kind](c, required);

const KIND_SCHEMAS: Record<FieldKind, (c: FieldConstraints, required: boolean) => JsonSchema> = {
  text: (c, required) => textSchema(c, required, 100),
  longText: (c, required) => textSchema(c, required, 2000),
  number: (c) =>
    defined({ type: c.integer ? 'integer' : 'number', minimum: c.minimum, maximum: c.maximum }),
  money: () => ({ type: 'string', maxLength: 15, pattern: MONEY_PATTERN }),
  date: () => ({ type: 'string', format: 'date', maxLength: 10 }),
  dateTime: () => ({ type: 'string', format: 'date-time', maxLength: 35 }),
  yesNo: () => ({ type: 'boolean' }),
  enumeration: (c) => {
    const values = (c.options ?? []).map((option) => option.value);
    const longest = Math.max(1, ...values.map((value) => value.length));
    return { type: 'string', maxLength: longest, enum: values };
  },
  catalog: (c) => ({ type: 'string', maxLength: c.maxLength ?? 10 }),
  documentReference: () => ({ type: 'string', maxLength: 35 }),
  file: () => structuredClone(FILE_SCHEMA),
  phone: () => ({ type: 'string', maxLength: 20, pattern: PHONE_PATTERN }),
  email: () => ({ type: 'string', format: 'email', maxLength: 255 }),
  group: () => ({ type: 'object', additionalProperties: false, properties: {} }),
  list: (c) =>
    defined({
      type: 'array',
      minItems: c.minItems,
      maxItems: c.maxItems,
      items: { type: 'object', additionalProperties: false, properties: {} },
    }),
};

/** The widget names of the kinds drawn by one of the engine's widgets (others: RJSF's own). */
const WIDGETS: Partial<Record<FieldKind, string>> = {
  longText: 'textarea',
  money: 'money',
  date: 'date',
  dateTime: 'datetime',
  yesNo: 'yesNo',
  catalog: 'catalog',
  file: 'file',
  phone: 'phone',
  email: 'email',
};

/** The uiSchema entry of a field of this kind, undefined when it needs none. */
export function kindUi(kind: FieldKind, c: FieldConstraints): Node | undefined {
  const widget = WIDGETS[kind];
  if (kind === 'catalog') return { 'ui:widget': widget, 'ui:options': { catalog: c.catalog } };
  return widget ? { 'ui:widget': widget } : undefined;
}

/** The kind a field's schema and uiSchema say, for the list of a section's fields. */
export function kindOf(schema: unknown, ui: unknown): FieldKind | undefined {
  const s = (schema ?? {}) as Node;
  const widget = (ui as Node | undefined)?.['ui:widget'];
  const byWidget = (Object.entries(WIDGETS) as Array<[FieldKind, string]>).find(
    ([, name]) => name === widget,
  )?.[0];
  if (byWidget) return byWidget;
  if (Array.isArray(s.enum)) return 'enumeration';
  if (s.type === 'array') return 'list';
  if (s.type === 'object') return 'group';
  if (s.type === 'boolean') return 'yesNo';
  if (s.type === 'number' || s.type === 'integer') return 'number';
  if (s.type === 'string') return 'text';
  return undefined;
}

/** Why a design's constraints cannot be written: texts keys of `studio.form.problems`. */
export function constraintProblems(kind: FieldKind, c: FieldConstraints): string[] {
  const problems: string[] = [];
  const asks = KIND_CONSTRAINTS[kind];
  const below = (low: number | undefined, high: number | undefined) =>
    low !== undefined && high !== undefined && low > high;
  if (asks.includes('length') && below(c.minLength, c.maxLength)) problems.push('lengths');
  if (asks.includes('bounds') && below(c.minimum, c.maximum)) problems.push('bounds');
  if (asks.includes('items') && below(c.minItems, c.maxItems)) problems.push('items');
  if (asks.includes('pattern') && c.pattern) {
    if (!validPattern(c.pattern)) problems.push('pattern');
    else if (!c.patternMessageEn?.trim() || !c.patternMessageFr?.trim())
      problems.push('patternMessage');
  }
  if (kind === 'enumeration') {
    const options = c.options ?? [];
    const values = options.map((o) => o.value);
    if (options.length === 0) problems.push('options');
    else if (
      values.some((v) => !/^[A-Za-z0-9_-]+$/.test(v)) ||
      new Set(values).size < values.length
    )
      problems.push('optionValues');
    else if (options.some((o) => !o.labelEn.trim() || !o.labelFr.trim()))
      problems.push('optionLabels');
  }
  if (kind === 'catalog' && !c.catalog) problems.push('catalog');
  if (kind === 'documentReference' && (!c.documentType || !c.documentStatuses?.length))
    problems.push('document');
  return problems;
}

/** Whether a pattern is a regular expression as the validators read it (Unicode mode). */
export function validPattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
