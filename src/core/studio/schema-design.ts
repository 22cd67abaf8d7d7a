import { isNode, type Node } from '../definitions/json';
import type { JsonSchema } from '../definitions/types';

/** The kinds of field the form designer adds, each a JSON Schema shape and a widget. */
export const FORM_FIELD_TYPES = ['text', 'longText', 'number', 'date', 'yesNo', 'catalog'] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** A field to add to a section of a document's form. */
export interface FormFieldDesign {
  section: string;
  name: string;
  type: FormFieldType;
  maxLength?: number;
  required: boolean;
  /** `catalog` fields: the catalogue whose entries the field offers. */
  catalog?: string;
  labelEn: string;
  labelFr: string;
  helpEn?: string;
  helpFr?: string;
}

/** The files a form change touches: the entity's definition and its two translation files. */
export interface FormFiles {
  entity: Node;
  en: Node;
  fr: Node;
}

function section(files: FormFiles, sectionId: string): { schema: Node; ui: Node } {
  const schema = (files.entity.schema as Node | undefined)?.properties;
  const sectionSchema = isNode(schema) ? schema[sectionId] : undefined;
  if (!isNode(sectionSchema) || !isNode(sectionSchema.properties))
    throw new Error(`The form has no section "${sectionId}" of fields`);
  const uiSchema = (files.entity.uiSchema ??= {}) as Node;
  const ui = (uiSchema[sectionId] ??= {}) as Node;
  return { schema: sectionSchema, ui };
}

/** The fields of a section in the order the form shows them. */
export function sectionFields(files: FormFiles, sectionId: string): string[] {
  const { schema, ui } = section(structuredClone(files), sectionId);
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

function propertyOf(field: FormFieldDesign): JsonSchema {
  if (field.type === 'number') return { type: 'number' };
  if (field.type === 'date') return { type: 'string', format: 'date', maxLength: 10 };
  if (field.type === 'yesNo') return { type: 'boolean' };
  if (field.type === 'catalog') return { type: 'string', maxLength: field.maxLength ?? 10 };
  return {
    type: 'string',
    ...(field.required && { minLength: 1 }),
    maxLength: field.maxLength ?? (field.type === 'longText' ? 2000 : 100),
  };
}

const WIDGETS: Partial<Record<FormFieldType, string>> = {
  longText: 'textarea',
  date: 'date',
  yesNo: 'radio',
  catalog: 'catalog',
};

function widgetOf(field: FormFieldDesign): Node | undefined {
  const widget = WIDGETS[field.type];
  if (!widget) return undefined;
  return field.type === 'catalog'
    ? { 'ui:widget': widget, 'ui:options': { catalog: field.catalog } }
    : { 'ui:widget': widget };
}

function label(text: string, help: string | undefined): string | Node {
  return help?.trim() ? { _: text, help: help.trim() } : text;
}

/** The files with a field added at the end of its section, with its labels and help. */
export function addField(files: FormFiles, field: FormFieldDesign): FormFiles {
  const next = structuredClone(files);
  const { schema, ui } = section(next, field.section);
  const properties = schema.properties as Node;
  if (properties[field.name] !== undefined)
    throw new Error(`The section already has a field "${field.name}"`);
  properties[field.name] = propertyOf(field);
  if (field.required) schema.required = [...((schema.required as string[]) ?? []), field.name];
  const order = sectionFields(files, field.section);
  ui['ui:order'] = [...order, field.name];
  const widget = widgetOf(field);
  if (widget) ui[field.name] = widget;
  for (const [language, text, help] of [
    ['en', field.labelEn, field.helpEn],
    ['fr', field.labelFr, field.helpFr],
  ] as const) {
    const texts = next[language];
    const sectionTexts = isNode(texts[field.section])
      ? (texts[field.section] as Node)
      : (texts[field.section] = { _: String(texts[field.section] ?? field.section) });
    sectionTexts[field.name] = label(text, help);
  }
  return next;
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
  section(next, sectionId).ui['ui:order'] = order;
  return next;
}

/** The files without a field: its schema, requirement, widget, order place and texts. */
export function removeField(files: FormFiles, sectionId: string, name: string): FormFiles {
  const next = structuredClone(files);
  const { schema, ui } = section(next, sectionId);
  delete (schema.properties as Node)[name];
  if (Array.isArray(schema.required)) {
    schema.required = (schema.required as string[]).filter((n) => n !== name);
    if ((schema.required as string[]).length === 0) delete schema.required;
  }
  delete ui[name];
  if (Array.isArray(ui['ui:order']))
    ui['ui:order'] = (ui['ui:order'] as string[]).filter((n) => n !== name);
  for (const language of ['en', 'fr'] as const) {
    const texts = next[language][sectionId];
    if (isNode(texts)) delete texts[name];
  }
  return next;
}

/** A definition's file text as the repository writes it: two spaces, a final newline. */
export function fileText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
