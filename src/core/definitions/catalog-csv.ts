/** A catalogue's CSV, as Export CSV writes it and Import CSV reads it back: whole entries. */
import { TRANSLATIONS_FIELD } from '../i18n/localized';
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  translate,
  type Language,
  type TextTree,
} from '../i18n/translate';
import { systemFieldsOf, translatableFieldsOf, VALIDITY_FIELDS } from './catalog-entry';
import type { CatalogDefinition } from './types';

/** At most this many rows in one import: the server refuses more (413), the browser says so. */
export const CATALOG_IMPORT_MAX_ROWS = 5000;

/** A column of a catalogue's CSV: a field, or one language's text of a translatable field. */
export interface CatalogCsvColumn {
  field: string;
  /** Set for a translatable field: the language of the text the column holds. */
  language?: Language;
}

/** The columns of a catalogue's CSV, in order. */
export function catalogCsvColumns(catalog: CatalogDefinition): CatalogCsvColumn[] {
  const system = new Set(systemFieldsOf(catalog));
  const shown = Object.keys(catalog.schema.properties ?? {}).filter((name) => !system.has(name));
  const first = (catalog.columns ?? []).filter((name) => shown.includes(name));
  const fields = [...first, ...shown.filter((name) => !first.includes(name)), ...VALIDITY_FIELDS];
  const translatable = new Set(translatableFieldsOf(catalog));
  return fields.flatMap((field) =>
    translatable.has(field) ? LANGUAGES.map((language) => ({ field, language })) : [{ field }],
  );
}

export type Texts = Partial<Record<Language, TextTree>>;

/** A field's label in a language: the catalogue's, or the validity period's from the texts. */
export function catalogFieldLabel(
  catalog: CatalogDefinition,
  field: string,
  texts: Texts,
  language: Language,
): string {
  if ((VALIDITY_FIELDS as readonly string[]).includes(field))
    return translate(texts, language, `catalog.${field}`);
  const labels = catalog.labels[language] ?? catalog.labels[DEFAULT_LANGUAGE];
  return labels?.fields[field] ?? field;
}

/** A column's title in a language: "Amount", or "Name (French)" for one language of a text. */
export function catalogCsvTitle(
  catalog: CatalogDefinition,
  column: CatalogCsvColumn,
  texts: Texts,
  language: Language,
): string {
  const label = catalogFieldLabel(catalog, column.field, texts, language);
  if (!column.language) return label;
  return translate(texts, language, 'catalog.translated.label', {
    label,
    language: translate(texts, language, `catalog.translated.languages.${column.language}`),
  });
}

/** Where an import problem lies: the row (0-based, as sent) and the column of its pointer. */
export function importProblemPlace(
  catalog: CatalogDefinition,
  path: string,
): { row: number; column?: CatalogCsvColumn } | undefined {
  const match = /^\/entries\/(\d+)(?:\/(.*))?$/.exec(path);
  if (!match) return undefined;
  const row = Number(match[1]);
  const parts = (match[2] ?? '').split('/').filter(Boolean);
  if (parts[0] === TRANSLATIONS_FIELD && parts.length >= 3) {
    const [, language, field] = parts as [string, Language, string];
    return { row, column: { field, language } };
  }
  const field = parts[0];
  if (field === undefined) return { row };
  return {
    row,
    column: translatableFieldsOf(catalog).includes(field)
      ? { field, language: DEFAULT_LANGUAGE }
      : { field },
  };
}
