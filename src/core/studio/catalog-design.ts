import type { CatalogDefinition, CatalogReference, JsonSchema } from '../definitions/types';
import { isFieldName, isIdentifier } from '../definitions/names';
import { fileText } from './schema-design';

/** The kinds of field a catalogue designer offers, each one JSON Schema shape. */
export const CATALOG_FIELD_TYPES = ['text', 'integer', 'number', 'boolean', 'date'] as const;
export type CatalogFieldType = (typeof CATALOG_FIELD_TYPES)[number];

/** One field of a catalogue as the designer edits it. */
export interface CatalogFieldDesign {
  name: string;
  type: CatalogFieldType;
  /** Text only: the longest value accepted. */
  maxLength?: number;
  required: boolean;
  /** Part of the entry's key (with the validity period, unique). */
  key: boolean;
  /** Shown as a column of the search page. */
  column: boolean;
  /** The catalogue whose code the field holds. */
  reference?: string;
  /** Text only (not a key nor a reference): given in English and French (`translatable`). */
  translatable: boolean;
  /** Number only: an amount of money in this currency (`money`). */
  currency?: string;
  labelEn: string;
  labelFr: string;
}

/** A catalogue as the designer edits it: everything an administrator decides, no JSON. */
export interface CatalogDesign {
  id: string;
  category: string;
  searcherRoles: string;
  managerRoles: string;
  titleEn: string;
  titleFr: string;
  fields: CatalogFieldDesign[];
}

/** A new catalogue: one key field, `code`, and one `name`, the shape most catalogues take. */
export function newCatalogDesign(): CatalogDesign {
  return {
    id: '',
    category: '',
    searcherRoles: '',
    managerRoles: '',
    titleEn: '',
    titleFr: '',
    fields: [
      { ...newField('code'), maxLength: 10, required: true, key: true },
      { ...newField('name'), maxLength: 100, required: true },
    ],
  };
}

export function newField(name = ''): CatalogFieldDesign {
  return {
    name,
    type: 'text',
    maxLength: 50,
    required: false,
    key: false,
    column: true,
    translatable: false,
    labelEn: '',
    labelFr: '',
  };
}

/** Whether a field of this design may be given in every language: a text the entry owns. */
export function mayTranslate(field: CatalogFieldDesign): boolean {
  return field.type === 'text' && !field.key && field.reference === undefined;
}

/** Whether a field of this design may be an amount of money: a number. */
export function mayBeMoney(field: CatalogFieldDesign): boolean {
  return field.type === 'number' || field.type === 'integer';
}

function typeOf(property: JsonSchema): CatalogFieldType {
  const types = Array.isArray(property.type) ? property.type : [property.type];
  const typed = (['integer', 'number', 'boolean'] as const).find((type) => types.includes(type));
  return typed ?? (property.format === 'date' ? 'date' : 'text');
}

/** The design of a catalogue definition (what the designer does not show is kept aside). */
export function designOfCatalog(catalog: CatalogDefinition): CatalogDesign {
  const properties = (catalog.schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((catalog.schema.required as string[] | undefined) ?? []);
  const columns = catalog.columns ?? Object.keys(properties);
  return {
    id: catalog.id,
    category: catalog.category,
    searcherRoles: catalog.searcherRoles,
    managerRoles: catalog.managerRoles,
    titleEn: catalog.labels.en?.title ?? '',
    titleFr: catalog.labels.fr?.title ?? '',
    fields: Object.entries(properties).map(([name, property]) => {
      const type = typeOf(property);
      return {
        name,
        type,
        ...(type === 'text' &&
          typeof property.maxLength === 'number' && { maxLength: property.maxLength }),
        required: required.has(name),
        key: catalog.key.includes(name),
        column: columns.includes(name),
        ...(catalog.references?.[name]?.catalog !== undefined && {
          reference: catalog.references[name].catalog,
        }),
        translatable: catalog.translatable?.includes(name) ?? false,
        ...(catalog.money?.[name] !== undefined && { currency: catalog.money[name] }),
        labelEn: catalog.labels.en?.fields[name] ?? '',
        labelFr: catalog.labels.fr?.fields[name] ?? '',
      };
    }),
  };
}

/** A field's JSON Schema: the one it had, with what the designer sets replaced. */
function propertyOf(field: CatalogFieldDesign, before: JsonSchema | undefined): JsonSchema {
  const kept: JsonSchema = { ...(before ?? {}) };
  for (const owned of ['type', 'format', 'maxLength', 'minLength'] as const) delete kept[owned];
  const shape: JsonSchema =
    field.type === 'date'
      ? { type: 'string', format: 'date' }
      : field.type === 'text'
        ? {
            type: 'string',
            ...(field.required && { minLength: 1 }),
            ...(field.maxLength !== undefined && { maxLength: field.maxLength }),
          }
        : { type: field.type };
  if (field.type !== 'text') delete kept.pattern;
  return { ...shape, ...kept };
}

/** The catalogue definition of a design, keeping what the designer does not edit from `before`. */
export function catalogOfDesign(
  design: CatalogDesign,
  before?: CatalogDefinition,
): CatalogDefinition {
  const beforeProperties = (before?.schema.properties ?? {}) as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = {};
  const references: Record<string, CatalogReference> = {};
  for (const field of design.fields) {
    properties[field.name] = propertyOf(field, beforeProperties[field.name]);
    const earlier = before?.references?.[field.name];
    if (field.reference)
      references[field.name] =
        earlier?.catalog === field.reference ? earlier : { catalog: field.reference };
  }
  const required = design.fields.filter((f) => f.required || f.key).map((f) => f.name);
  // A switch left on when the field became a key or a number means nothing: not written.
  const translatable = design.fields.filter((f) => f.translatable && mayTranslate(f));
  const money = design.fields.flatMap((f) =>
    f.currency !== undefined && mayBeMoney(f) ? [[f.name, f.currency] as const] : [],
  );
  const labels = (language: 'en' | 'fr', title: string) => ({
    title,
    fields: Object.fromEntries(
      design.fields.map((f) => [f.name, language === 'en' ? f.labelEn : f.labelFr]),
    ),
  });
  const { $comment, keyNote, enabled }: Partial<CatalogDefinition> & { $comment?: string } =
    before ?? {};
  return {
    ...($comment !== undefined && { $comment }),
    id: design.id,
    category: design.category,
    ...(enabled !== undefined && { enabled }),
    searcherRoles: design.searcherRoles,
    managerRoles: design.managerRoles,
    key: design.fields.filter((f) => f.key).map((f) => f.name),
    ...(keyNote !== undefined && { keyNote }),
    schema: {
      ...(before?.schema ?? {}),
      type: 'object',
      ...(required.length > 0 ? { required } : {}),
      properties,
    },
    columns: design.fields.filter((f) => f.column).map((f) => f.name),
    ...(Object.keys(references).length > 0 && { references }),
    ...(translatable.length > 0 && { translatable: translatable.map((f) => f.name) }),
    ...(money.length > 0 && { money: Object.fromEntries(money) }),
    labels: { en: labels('en', design.titleEn), fr: labels('fr', design.titleFr) },
  } as CatalogDefinition;
}

/** The file of a catalogue in a set of definitions. */
export function catalogFile(id: string): string {
  return `catalogs/${id}.json`;
}

/** A catalogue's file text as the repository writes it: its meta-schema named, two spaces. */
export function catalogFileText(catalog: CatalogDefinition): string {
  return fileText({ $schema: '../meta/catalog.schema.json', ...catalog });
}

/** What the designer refuses before a check, as text keys with their fields. */
export function designProblems(design: CatalogDesign) {
  const problems: Array<{ field?: string; key: string; values?: Record<string, string> }> = [];
  const names = new Set<string>();
  if (!isIdentifier(design.id)) problems.push({ field: 'id', key: 'studio.catalog.badId' });
  if (design.fields.length === 0) problems.push({ key: 'studio.catalog.noFields' });
  if (!design.fields.some((f) => f.key)) problems.push({ key: 'studio.catalog.noKey' });
  for (const field of design.fields) {
    if (!isFieldName(field.name))
      problems.push({ key: 'studio.catalog.badField', values: { name: field.name } });
    else if (names.has(field.name))
      problems.push({ key: 'studio.catalog.sameField', values: { name: field.name } });
    names.add(field.name);
  }
  return problems;
}
