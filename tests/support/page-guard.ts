import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { countrySeedEntries } from '../../src/server/catalog/country-seed';
import { PROJECT_ROOT } from '../../src/server/config';

/**
 * What a person must never see on a page of the portal, read from the definitions themselves so
 * that a new module, status or text is guarded without touching this file:
 * - a translation key (`visa-application.applicant.familyName`) or i18next's own error text;
 * - a status code as the machine spells it (`STORED`, `NEW -> STORED`) instead of its word;
 * - an enumeration code (`active`, `INDIVIDUAL`) instead of its word;
 * - on a French page, an English text of the portal that has a different French text, or the
 *   English text of a catalogue entry that has a French one (a visa type, a question, a fee, a
 *   country), alone or as the portal writes it ("WRK - Work visa", "Issue fee (Lani Tui)").
 */
export interface PageVocabulary {
  /** First segments of every translation key: top-level keys and namespace files. */
  keyPrefixes: Set<string>;
  /** Status codes of every workflow machine, which must show as words. */
  statuses: string[];
  /** Enumeration values of every schema whose word differs from the code. */
  enumerationCodes: Set<string>;
  /** English texts whose French text differs, exact (no placeholder). */
  englishTexts: Set<string>;
  /** English texts with placeholders, as patterns of their fixed parts. */
  englishPatterns: RegExp[];
  /**
   * English texts of the reference data whose French differs (seeds/catalogs.json's entries and
   * the countries of i18n-iso-countries, as seeded): a French page must show their French.
   */
  catalogueTexts: Set<string>;
}

type Tree = string | { [key: string]: Tree };

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

function leaves(tree: Tree, prefix: string, into: Map<string, string>): Map<string, string> {
  if (typeof tree === 'string') into.set(prefix, tree);
  else
    for (const [key, value] of Object.entries(tree))
      leaves(value, prefix ? `${prefix}.${key}` : key, into);
  return into;
}

/** Every text of one language, keyed as i18next sees it (namespace files under their name). */
function textsOf(language: string, root = PROJECT_ROOT): Map<string, string> {
  const dir = path.join(root, 'translations');
  const texts = leaves(readJson<Tree>(path.join(dir, `${language}.json`)), '', new Map());
  for (const file of fs.readdirSync(path.join(dir, language)))
    if (file.endsWith('.json'))
      leaves(readJson<Tree>(path.join(dir, language, file)), path.basename(file, '.json'), texts);
  return texts;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function loadVocabulary(root = PROJECT_ROOT): PageVocabulary {
  const dir = path.join(root, 'translations');
  const keyPrefixes = new Set([
    ...Object.keys(readJson<Record<string, unknown>>(path.join(dir, 'en.json'))),
    ...fs
      .readdirSync(path.join(dir, 'en'))
      .filter((file) => file.endsWith('.json'))
      .map((file) => path.basename(file, '.json')),
  ]);

  const statuses = new Set<string>();
  for (const file of fs.readdirSync(path.join(root, 'workflows'))) {
    if (!file.endsWith('.json')) continue;
    const workflow = readJson<{ machine?: { states?: Record<string, unknown> } }>(
      path.join(root, 'workflows', file),
    );
    for (const state of Object.keys(workflow.machine?.states ?? {}))
      if (/^[A-Z][A-Z _]+$/.test(state)) statuses.add(state);
  }

  const enumerationCodes = new Set<string>();
  const collectEnums = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collectEnums);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'enum' && Array.isArray(value)) {
          for (const code of value)
            if (typeof code === 'string' && code.length >= 3 && !/^\d+$/.test(code))
              enumerationCodes.add(code);
        } else collectEnums(value);
      }
    }
  };
  for (const file of fs.readdirSync(path.join(root, 'schemas')))
    if (file.endsWith('.json')) collectEnums(readJson(path.join(root, 'schemas', file)));

  const english = textsOf('en', root);
  const french = textsOf('fr', root);
  const frenchValues = new Set(french.values());
  const englishTexts = new Set<string>();
  const englishPatterns: RegExp[] = [];
  for (const [key, text] of english) {
    const translated = french.get(key);
    if (translated === undefined || translated === text || frenchValues.has(text)) continue;
    if (!/[A-Za-z]{3}/.test(text)) continue;
    if (text.includes('{{')) {
      const fixed = text.split(/\{\{[^}]*\}\}/);
      if (fixed.join('').replace(/\W/g, '').length < 8) continue;
      // A count is a number ("2 accounts"): read as any text, "{{count}} access units" would
      // take a role described "User management: delete access units" for English of ours.
      const holes = [...text.matchAll(/\{\{\s*([^},\s]+)[^}]*\}\}/g)].map(([, name]) =>
        name === 'count' ? '[\\d\\s.,]+' : '.+',
      );
      const source = fixed.map((part, i) => escapeRegExp(part) + (holes[i] ?? '')).join('');
      englishPatterns.push(new RegExp(`^${source}$`));
    } else englishTexts.add(text);
  }
  return {
    keyPrefixes,
    statuses: [...statuses],
    enumerationCodes,
    englishTexts,
    englishPatterns,
    catalogueTexts: catalogueEnglish(root, frenchValues),
  };
}

type SeedEntry = Record<string, unknown> & { i18n?: { fr?: Record<string, unknown> } };

/**
 * The English texts of the reference data that have a different French text: every translated
 * field of the seed file's entries, and the countries' names as seeded. A text that is also
 * French somewhere (a French text of the portal, or of an entry) is no sign of English.
 */
function catalogueEnglish(root: string, frenchTexts: ReadonlySet<string>): Set<string> {
  const seed = readJson<Record<string, unknown>>(path.join(root, 'seeds', 'catalogs.json'));
  const entries: SeedEntry[] = [
    ...Object.values(seed).flatMap((list) => (Array.isArray(list) ? (list as SeedEntry[]) : [])),
    ...countrySeedEntries(),
  ];
  const pairs = entries.flatMap((entry) =>
    Object.entries(entry.i18n?.fr ?? {}).flatMap(([field, french]) =>
      typeof entry[field] === 'string' && typeof french === 'string'
        ? [[entry[field] as string, french] as const]
        : [],
    ),
  );
  const french = new Set([...frenchTexts, ...pairs.map(([, text]) => text)]);
  return new Set(
    pairs
      .filter(([english, text]) => english !== text && !french.has(english))
      .map(([english]) => english),
  );
}

/**
 * The catalogue text a page text shows, as the portal writes one: alone, after its code
 * ("WRK - Work visa", a select's label), or before a bracket ("Issue fee (Lani Tui)", a fee
 * for a person; "Germany (DE)", a country by name).
 */
function catalogueTextsIn(text: string): string[] {
  const afterCode = /^\S+ - (.+)$/.exec(text)?.[1];
  const beforeBracket = /^(.+) \([^()]*\)$/.exec(text)?.[1];
  return [text, afterCode, beforeBracket].filter((part): part is string => part !== undefined);
}

/** One text a person meets on the page: a visible text node or an accessible attribute. */
export interface PageText {
  text: string;
  /** Where it was found, for the report: the element's tag and a short path. */
  where: string;
  /** Inside a table's data cell (a catalogue's entries are data, in the language entered). */
  inDataCell: boolean;
  /** The language the page declares for it (the nearest `lang`), e.g. a message as written. */
  lang: string;
  /**
   * The value shown in a text box (a select's chosen entry): what was typed is the person's own,
   * so only the reference data is looked for there.
   */
  inInput?: boolean;
}

/**
 * Every visible text node of the page, the texts a screen reader or a hover reveals
 * (aria-label, placeholder, title, alt) of visible elements, and the values of visible text boxes.
 */
export function pageTexts(page: Page): Promise<PageText[]> {
  return page.evaluate(() => {
    const describe = (element: Element) => {
      const parts: string[] = [];
      for (let e: Element | null = element; e && parts.length < 3; e = e.parentElement) {
        const label = e.getAttribute('data-testid') ?? e.id;
        parts.unshift(`${e.tagName.toLowerCase()}${label ? `#${label}` : ''}`);
      }
      return parts.join('>');
    };
    const found: Array<{
      text: string;
      where: string;
      inDataCell: boolean;
      lang: string;
      inInput?: boolean;
    }> = [];
    const langOf = (element: Element) => element.closest('[lang]')?.getAttribute('lang') ?? '';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.replace(/\s+/g, ' ').trim();
      if (!text || !parent || parent.closest('script, style, noscript')) continue;
      if (!parent.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      found.push({
        text,
        where: describe(parent),
        inDataCell: parent.closest('td') !== null,
        lang: langOf(parent),
      });
    }
    for (const element of document.body.querySelectorAll(
      '[aria-label], [placeholder], [title], img[alt]',
    )) {
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      for (const attribute of ['aria-label', 'placeholder', 'title', 'alt']) {
        const text = element.getAttribute(attribute)?.trim();
        if (text)
          found.push({
            text,
            where: `${describe(element)}[${attribute}]`,
            inDataCell: element.closest('td') !== null,
            lang: langOf(element),
          });
      }
    }
    for (const input of document.body.querySelectorAll<HTMLInputElement>(
      'input:not([type]), input[type="text"], input[type="search"]',
    )) {
      const text = input.value.replace(/\s+/g, ' ').trim();
      if (!text || !input.checkVisibility({ visibilityProperty: true })) continue;
      found.push({
        text,
        where: `${describe(input)}[value]`,
        inDataCell: input.closest('td') !== null,
        lang: langOf(input),
        inInput: true,
      });
    }
    return found;
  });
}

/** What is wrong with the texts of one page; empty when a person would see nothing raw. */
export function textProblems(
  texts: PageText[],
  vocabulary: PageVocabulary,
  options: {
    language: 'en' | 'fr';
    /**
     * The page's table cells show reference data (a catalogue): their codes are data, and a
     * text a catalogue keeps in one language only (a name of an agency) is as it was entered,
     * so there the portal's own English and enumeration codes are not looked for; an entry's
     * English that has a French text is (above), as everywhere.
     */
    cellsAreData: boolean;
  },
): string[] {
  const problems: string[] = [];
  const keyPattern = /(?:^|[\s'"(«:])([a-z][\w-]*(?:\.[\w-]+)+)(?:…)?/g;
  for (const { text, where, inDataCell, lang, inInput } of texts) {
    const data = options.cellsAreData && inDataCell;
    // A catalogue entry's English on a French page, in a table cell of a catalogue too: an entry
    // that has a French text shows it to a French reader.
    if (options.language === 'fr' && !lang.startsWith('en')) {
      const english = catalogueTextsIn(text).find((part) => vocabulary.catalogueTexts.has(part));
      if (english !== undefined)
        problems.push(`English catalogue text "${english}" on a French page at ${where}`);
    }
    // What a person typed is theirs, in any language.
    if (inInput) continue;
    if (/returned an object instead of string|^key '.+'|\bmissingKey\b/.test(text))
      problems.push(`i18next error "${text}" at ${where}`);
    for (const match of text.matchAll(keyPattern)) {
      const candidate = match[1]!;
      if (
        candidate.includes('@') ||
        /\.(pdf|png|jpe?g|json|txt|zip|csv|example|org|com|nz)$/i.test(candidate)
      )
        continue;
      if (vocabulary.keyPrefixes.has(candidate.split('.')[0]!))
        problems.push(`translation key "${candidate}" in "${text}" at ${where}`);
    }
    for (const status of vocabulary.statuses)
      if (new RegExp(`(^|[^A-Za-z])${escapeRegExp(status)}($|[^A-Za-z])`).test(text))
        problems.push(`status code "${status}" in "${text}" at ${where}`);
    if (/\b[A-Z]{3,}(?: [A-Z]+)* ?(?:->|→) ?[A-Z]{3,}/.test(text))
      problems.push(`a transition between status codes "${text}" at ${where}`);
    if (!data && vocabulary.enumerationCodes.has(text))
      problems.push(`enumeration code "${text}" at ${where}`);
    if (
      !data &&
      options.language === 'fr' &&
      // A part the page marks as written in English (a message as sent) is English on purpose.
      !lang.startsWith('en') &&
      (vocabulary.englishTexts.has(text) ||
        vocabulary.englishPatterns.some((pattern) => pattern.test(text)))
    )
      problems.push(`English text "${text}" on a French page at ${where}`);
  }
  return [...new Set(problems)];
}
