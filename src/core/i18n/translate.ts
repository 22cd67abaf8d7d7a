/** A tree of texts for one language, as kept in translations/{lang}.json. */
export interface TextTree {
  [key: string]: string | TextTree;
}

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Picks a supported language from a `locale` header or an Accept-Language list. */
export function pickLanguage(...candidates: Array<string | undefined | null>): Language {
  for (const candidate of candidates) {
    if (!candidate) continue;
    for (const part of candidate.split(',')) {
      const tag = part.split(';')[0]?.trim().toLowerCase().slice(0, 2);
      if (tag && (LANGUAGES as readonly string[]).includes(tag)) return tag as Language;
    }
  }
  return DEFAULT_LANGUAGE;
}

export function lookup(tree: TextTree, key: string): string | undefined {
  let node: string | TextTree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * A key's text in one language: with a numeric `count`, its plural form first (`key_one`,
 * `key_other`... by the language's plural rules, as i18next names them in the browser).
 */
function textOf(
  tree: TextTree | undefined,
  language: Language,
  key: string,
  count: unknown,
): string | undefined {
  if (!tree) return undefined;
  if (typeof count === 'number') {
    const form = new Intl.PluralRules(language).select(count);
    const plural = lookup(tree, `${key}_${form}`) ?? lookup(tree, `${key}_other`);
    if (plural !== undefined) return plural;
  }
  return lookup(tree, key);
}

/** The language's text, else English, else the key; `{{name}}` filled from params. */
export function translate(
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
  key: string,
  params: Record<string, unknown> = {},
): string {
  const template =
    textOf(texts[language], language, key, params.count) ??
    textOf(texts[DEFAULT_LANGUAGE], DEFAULT_LANGUAGE, key, params.count) ??
    key;
  return fill(template, params);
}

/** `{{name}}` in a template filled from params (nothing for an absent one). */
export function fill(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
    params[name] === undefined ? '' : String(params[name]),
  );
}

/** Whether the language's texts, or English, hold `key` (in a plural form for a `count`). */
export function hasText(
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
  key: string,
  count?: number,
): boolean {
  return (
    textOf(texts[language], language, key, count) !== undefined ||
    textOf(texts[DEFAULT_LANGUAGE], DEFAULT_LANGUAGE, key, count) !== undefined
  );
}

/** Keys present in one tree and missing from the other: used to keep en and fr complete. */
export function missingKeys(reference: TextTree, other: TextTree, prefix = ''): string[] {
  const missing: string[] = [];
  for (const [key, value] of Object.entries(reference)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const counterpart = other[key];
    if (typeof value !== 'string' && typeof counterpart === 'object')
      missing.push(...missingKeys(value, counterpart, path));
    else if (typeof counterpart !== typeof value) missing.push(path);
  }
  return missing;
}
