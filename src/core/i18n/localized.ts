import { asNode, type Node } from '../definitions/json';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './translate';

/** Reference data in the reader's language: other languages' texts sit in `i18n`, English stays in the field. */
export const TRANSLATIONS_FIELD = 'i18n';

/** The languages a translatable text is given in besides the default one (English). */
export const TRANSLATED_LANGUAGES: readonly Language[] = LANGUAGES.filter(
  (language) => language !== DEFAULT_LANGUAGE,
);

/** Language -> field -> text: the `i18n` property of an entry or an item. */
export type Translations = Partial<Record<Language, Record<string, string>>>;

/** The text of `field` of one language as `record` keeps it, if it has one (not empty). */
export function translationOf(
  record: unknown,
  field: string,
  language: Language,
): string | undefined {
  const text = asNode(asNode(asNode(record)?.[TRANSLATIONS_FIELD])?.[language])?.[field];
  return typeof text === 'string' && text !== '' ? text : undefined;
}

/** The text of `field` in `language`, else its own; undefined when it holds none. */
export function localizedText(
  record: unknown,
  field: string,
  language: Language,
): string | undefined {
  const node = asNode(record);
  if (!node) return undefined;
  if (language !== DEFAULT_LANGUAGE) {
    const translated = translationOf(node, field, language);
    if (translated !== undefined) return translated;
  }
  const own = node[field];
  return typeof own === 'string' ? own : undefined;
}

/** The translations of `fields` of `record`, renamed as `rename` says; undefined when none. */
export function copiedTranslations(
  record: unknown,
  rename: ReadonlyArray<readonly [target: string, source: string]>,
): Translations | undefined {
  const copied: Translations = {};
  for (const language of TRANSLATED_LANGUAGES) {
    for (const [target, source] of rename) {
      const text = translationOf(record, source, language);
      if (text !== undefined) (copied[language] ??= {})[target] = text;
    }
  }
  return Object.keys(copied).length > 0 ? copied : undefined;
}

/** A copy of `record` read in `language`, without its `i18n`. */
export function inLanguage<T extends object>(
  record: T,
  fields: readonly string[],
  language: Language,
): T {
  const { [TRANSLATIONS_FIELD]: _translations, ...rest } = record as Node;
  const read: Node = { ...rest };
  for (const field of fields) {
    const text = localizedText(record, field, language);
    if (text !== undefined) read[field] = text;
  }
  return read as T;
}
