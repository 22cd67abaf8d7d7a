import type { Kysely, Transaction } from 'kysely';
import { catalogFieldsOf } from '../../core/definitions/catalog-fields';
import type { EntityDefinition } from '../../core/definitions/types';
import { formatDate, formatMoney } from '../../core/format';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import { localizedText, translationOf } from '../../core/i18n/localized';
import { resolvePointer } from '../../core/rules/registry';
import { entriesValidAt } from '../catalog/valid-at';
import type { Database } from '../db/schema';
import { nodesAt } from '../definitions/check-records';

/** The name of a catalogue entry valid now, if there is one. */
export type CatalogNames = (catalog: string, code: string) => Promise<string | undefined>;

/** The catalogue of the select filling the field at `pointer` (an item's index as `*`). */
function catalogAt(entity: EntityDefinition, pointer: string): string | undefined {
  const general = pointer.replace(/\/\d+(?=\/|$)/g, '/*');
  return catalogFieldsOf(entity).find((field) => `/${field.segments.join('/')}` === general)
    ?.catalog;
}

/** What wording a document's values needs: its entity and data, the texts and the language. */
export interface WordingSource {
  entity: EntityDefinition;
  data: unknown;
  texts: Partial<Record<Language, TextTree>>;
  language: Language;
  /** The currency a `money` value is in. */
  currency?: string;
}

/**
 * One stored value as a person reads it: an amount with its currency, a date as DD/MM/YYYY, an
 * enumeration's or a catalogue's name (never its code: "Samoa", not "WS"), yes or no, else as
 * is. A text copied from a catalogue with its translations reads in `language`. The certificate
 * (PDF and web page) and the public status check word values with it alike.
 */
export function valueWords(source: WordingSource, names: CatalogNames) {
  const { entity, data, texts, language, currency } = source;
  const t = (key: string) => translate(texts, language, key);
  return async (value: unknown, pointer: string, format?: 'money' | string): Promise<string> => {
    if (format === 'money' && currency && (typeof value === 'number' || typeof value === 'string'))
      return formatMoney(value, language, currency);
    const field = pointer.split('/').pop() ?? '';
    const parent = resolvePointer(data, pointer.slice(0, -field.length - 1));
    const text = translationOf(parent, field, language) ?? String(value);
    const path = pointer
      .split('/')
      .slice(1)
      .filter((s) => !/^\d+$/.test(s))
      .join('.');
    if (nodesAt(entity.schema, pointer).some((node) => Array.isArray(node.enum))) {
      return t(`${entity.id}.${path}.enum.${text}`);
    }
    const catalog = catalogAt(entity, pointer);
    if (catalog) return (await names(catalog, text)) ?? text;
    if (typeof value === 'boolean') return t(value ? 'form.yes' : 'form.no');
    return /^\d{4}-\d{2}-\d{2}$/.test(text) ? formatDate(text) : text;
  };
}

/** Catalogue names from the database, as valid at `at`, in `language` (English without one). */
export function storedCatalogNames(
  db: Kysely<Database> | Transaction<Database>,
  language: Language,
  at = new Date(),
): CatalogNames {
  return async (catalog, code) => {
    const [entry] = await entriesValidAt(db, catalog, at, [code]);
    const name = localizedText(entry?.data, 'name', language);
    return name !== undefined && name !== '' ? name : undefined;
  };
}
