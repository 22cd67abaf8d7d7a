import {
  systemFieldsOf,
  translatableFieldsOf,
  VALIDITY_FIELDS,
} from '../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../core/definitions/types';
import { localizedText } from '../core/i18n/localized';
import type { Language } from '../core/i18n/translate';

/** A catalogue's fields the screens show: all but the `readOnly` ones the system fills. */
export function shownCatalogFields(catalog: CatalogDefinition): string[] {
  const system = new Set(systemFieldsOf(catalog));
  return Object.keys(catalog.schema.properties ?? {}).filter((name) => !system.has(name));
}

/** Where an entry's validity period stands at an instant: catalog.validity.{status} words it. */
export type ValidityStatus = 'valid' | 'expired' | 'notYetValid';

/** An entry is valid from its startTime (inclusive) until its endTime (exclusive), as the server reads it. */
export function validityStatus(
  data: { startTime?: unknown; endTime?: unknown },
  now: Date = new Date(),
): ValidityStatus {
  const instant = (value: unknown) =>
    typeof value === 'string' && value !== '' ? Date.parse(value) : undefined;
  const start = instant(data.startTime);
  const end = instant(data.endTime);
  if (start !== undefined && now.getTime() < start) return 'notYetValid';
  if (end !== undefined && now.getTime() >= end) return 'expired';
  return 'valid';
}

type Translate = (key: string, params?: Record<string, unknown>) => string;

/** A field's label: the catalogue's in `language` (else English), or the validity period's text. */
export function fieldLabel(
  t: Translate,
  catalog: CatalogDefinition,
  language: Language,
  name: string,
) {
  if ((VALIDITY_FIELDS as readonly string[]).includes(name)) return t(`catalog.${name}`);
  return (catalog.labels[language] ?? catalog.labels.en)?.fields[name] ?? name;
}

/** The label of one language's text of a translatable field ("Name (French)"). */
export function languageLabel(t: Translate, label: string, language: Language): string {
  return t('catalog.translated.label', {
    label,
    language: t(`catalog.translated.languages.${language}`),
  });
}

/** What a row shows of a field: a translatable text in the reader's language (else English). */
export function shownValue(
  catalog: CatalogDefinition,
  data: Record<string, unknown>,
  field: string,
  language: Language,
): unknown {
  return translatableFieldsOf(catalog).includes(field)
    ? (localizedText(data, field, language) ?? data[field])
    : data[field];
}
