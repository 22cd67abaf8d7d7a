import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './translate';

/**
 * Reference data in the reader's language. A text field declared translatable (a catalogue's
 * `translatable`) keeps its default-language (English) text where it always was, so keys,
 * references, search and every reader that knows nothing of languages keep working; the other
 * languages' texts sit beside it in one reserved property of the same object:
 *
 *     { "code": "WRK", "name": "Work visa", "i18n": { "fr": { "name": "Visa de travail" } } }
 *
 * The same shape serves a catalogue entry and a text copied from one into a document (a
 * character question, an attachment's name, a fee line's name): whoever shows the text picks
 * the reader's language, English when that language has none.
 */
export const TRANSLATIONS_FIELD = 'i18n';

/** The languages a translatable text is given in besides the default one (English). */
export const TRANSLATED_LANGUAGES: readonly Language[] = LANGUAGES.filter(
  (language) => language !== DEFAULT_LANGUAGE,
);

/** Language -> field -> text: the `i18n` property of an entry or an item. */
export type Translations = Partial<Record<Language, Record<string, string>>>;

type Node = Record<string, unknown>;

const asNode = (value: unknown): Node | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Node)
    : undefined;

/** The text of `field` of one language as `record` keeps it, if it has one (not empty). */
export function translationOf(
  record: unknown,
  field: string,
  language: Language,
): string | undefined {
  const text = asNode(asNode(asNode(record)?.[TRANSLATIONS_FIELD])?.[language])?.[field];
  return typeof text === 'string' && text !== '' ? text : undefined;
}

/**
 * The text of `field` in `language`: its translation, else the field's own (default-language)
 * text; undefined when the field holds no text.
 */
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

/**
 * The translations of `fields` of `record`, named as `rename` says (a copy's own field names:
 * an entry's `description` becomes a question's `question`); undefined when there are none.
 */
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

/**
 * A copy of `record` read in `language`: each of `fields` holds its text in that language (else
 * its own), and the `i18n` property is gone. What a reader of one language is handed.
 */
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
