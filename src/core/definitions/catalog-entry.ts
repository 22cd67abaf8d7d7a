import type { CatalogDefinition, JsonSchema, JsonValue } from './types';
import type { FieldKind } from '../search/criteria';
import { TRANSLATED_LANGUAGES, TRANSLATIONS_FIELD } from '../i18n/localized';

/** Fields every catalogue entry has: its validity period [startTime, endTime). */
export const VALIDITY_FIELDS = ['startTime', 'endTime'] as const;

/** The schema an entry is validated with on both sides: its fields plus the validity period. */
export function catalogEntrySchema(catalog: CatalogDefinition): JsonSchema {
  const own = catalog.schema;
  const properties = (own.properties ?? {}) as Record<string, JsonValue>;
  const required = Array.isArray(own.required) ? own.required : [];
  return {
    ...own,
    $id: `catalog/${catalog.id}`,
    type: 'object',
    properties: {
      ...properties,
      ...translationsProperty(catalog),
      startTime: { type: 'string', format: 'date-time' },
      endTime: { type: ['string', 'null'], format: 'date-time' },
    },
    required: [...required, 'startTime'],
    additionalProperties: false,
  };
}

/** The fields of a catalogue given in every language (`translatable`). */
export function translatableFieldsOf(catalog: Pick<CatalogDefinition, 'translatable'>): string[] {
  return catalog.translatable ?? [];
}

/** The currency of a field that holds an amount of money (`money`), if it does. */
export function currencyOf(
  catalog: Pick<CatalogDefinition, 'money'>,
  field: string,
): string | undefined {
  return catalog.money?.[field];
}

/** The `i18n` property of a catalogue with translatable fields, none required. */
function translationsProperty(catalog: CatalogDefinition): Record<string, JsonSchema> {
  const fields = translatableFieldsOf(catalog);
  if (fields.length === 0) return {};
  const properties = (catalog.schema.properties ?? {}) as Record<string, JsonSchema>;
  const texts: Record<string, JsonValue> = {};
  for (const field of fields) {
    const { readOnly: _system, ...limits } = properties[field] ?? { type: 'string' };
    texts[field] = limits;
  }
  const language: JsonSchema = { type: 'object', additionalProperties: false, properties: texts };
  return {
    [TRANSLATIONS_FIELD]: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(TRANSLATED_LANGUAGES.map((code) => [code, language])),
    },
  };
}

/** The fields only the system writes (`readOnly`): screens leave them out, the server keeps them. */
export function systemFieldsOf(catalog: CatalogDefinition): string[] {
  const properties = (catalog.schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.keys(properties).filter((name) => properties[name]?.readOnly === true);
}

/** The searchable fields of a catalogue and the kind of value each holds. */
export function catalogFieldKinds(catalog: CatalogDefinition): Record<string, FieldKind> {
  const properties = (catalog.schema.properties ?? {}) as Record<string, JsonSchema>;
  const kinds = Object.entries(properties).map(
    ([name, property]) => [name, fieldKind(property)] as const,
  );
  return { ...Object.fromEntries(kinds), startTime: 'datetime', endTime: 'datetime' };
}

export function fieldKind(property: JsonSchema): FieldKind {
  const types = Array.isArray(property.type) ? property.type : [property.type];
  if (types.includes('integer') || types.includes('number')) return 'number';
  if (types.includes('boolean')) return 'boolean';
  if (property.format === 'date-time') return 'datetime';
  if (property.format === 'date') return 'date';
  return 'text';
}

/** The key of an entry as one string: its key fields' values joined, for uniqueness checks. */
export function entryKey(catalog: CatalogDefinition, data: Record<string, unknown>): string {
  return catalog.key.map((field) => String(data[field] ?? '')).join('\u001f');
}

/** The author of the starting reference data: the screens say "reference data" instead. */
export const SEED_ACTOR = 'seed';

/** An entry as the catalogue API returns it: its data, version and who changed it when. */
export interface CatalogEntryRecord {
  id: string;
  version: number;
  data: Record<string, unknown>;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
}

/** A changed field of an entry: its value before and after (`language`: one of its translations). */
export interface FieldChange {
  field: string;
  language?: string;
  before: unknown;
  after: unknown;
}

/** One line of an entry's history: who made which version when, and what it changed. */
export interface CatalogHistoryLine {
  version: number;
  action: 'updated' | 'deleted' | 'restored';
  changedAt: string;
  changedBy: string;
  changes: FieldChange[];
}

/** The fields that differ between two states of an entry's data, translations language by language. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): FieldChange[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const names = (a: object, b: object) => [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const objectOf = (value: unknown): Record<string, unknown> =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const changes: FieldChange[] = [];
  for (const field of names(before, after)) {
    if (field !== TRANSLATIONS_FIELD) {
      if (!same(before[field], after[field]))
        changes.push({ field, before: before[field] ?? null, after: after[field] ?? null });
      continue;
    }
    const [was, is] = [objectOf(before[field]), objectOf(after[field])];
    for (const language of names(was, is)) {
      const [old, now] = [objectOf(was[language]), objectOf(is[language])];
      for (const name of names(old, now))
        if (!same(old[name] || null, now[name] || null))
          changes.push({
            field: name,
            language,
            before: old[name] ?? null,
            after: now[name] ?? null,
          });
    }
  }
  return changes;
}
