import {
  LANGUAGES,
  hasText,
  translate,
  type Language,
  type TextTree,
} from '../../core/i18n/translate';

/**
 * What a checker says, in no language yet: a key of the `checker` texts
 * (translations/<language>/checker.json) and the values its text names. Worded in the reader's
 * language when the problem leaves the checker (`wordProblems`).
 */
export interface ProblemText {
  key: string;
  params?: Record<string, string | number>;
}

/** A checker text: `said('unknownRule', { rule })`. */
export const said = (key: string, params?: Record<string, string | number>): ProblemText =>
  params ? { key, params } : { key };

/** One problem in one definition file, located by JSON pointer, saying what is wrong. */
export interface DefinitionProblem {
  file: string;
  pointer: string;
  message: string;
}

/**
 * A problem as the checker finds it: said by a text (`key`, `params`), worded in English until
 * it leaves the checker worded in its reader's language (`wordProblems`).
 */
export interface SaidProblem extends DefinitionProblem, ProblemText {}

/** Says a problem at a pointer of one file. */
export type Report = (pointer: string, text: ProblemText) => void;

/** A problem of `file` at `pointer`, saying `text` (worded in English until worded again). */
export function problemOf(file: string, pointer: string, text: ProblemText): SaidProblem {
  return { file, pointer, message: wordText(text, {}, 'en'), ...text };
}

/** A `Report` for `file`, adding to `problems`. */
export function reporter(problems: SaidProblem[], file: string): Report {
  return (pointer, text) => void problems.push(problemOf(file, pointer, text));
}

/** The checker's texts found in a set's translations, by language. */
export type CheckerTexts = Partial<Record<Language, TextTree>>;

/**
 * A text worded from the first of `sources` that has it (a draft's own texts, then those
 * served); with none, its key and values, still naming what is wrong.
 */
function wordText(text: ProblemText, sources: CheckerTexts | CheckerTexts[], language: Language) {
  const key = `checker.${text.key}`;
  const count = typeof text.params?.count === 'number' ? text.params.count : undefined;
  for (const texts of Array.isArray(sources) ? sources : [sources])
    if (hasText(texts, language, key, count)) return translate(texts, language, key, text.params);
  const values = Object.entries(text.params ?? {}).map(([name, value]) => `${name}: ${value}`);
  return values.length ? `${text.key} (${values.join(', ')})` : text.key;
}

/**
 * The problems, each worded in `language` from `sources`: what leaves the checker. `keepText`
 * keeps the key and values beside the words (the API's answer: a program, the studio's missing
 * texts among them, reads what is wrong whatever the language).
 */
export function wordProblems(
  problems: readonly SaidProblem[],
  sources: CheckerTexts | CheckerTexts[],
  language: Language,
  keepText = false,
): DefinitionProblem[] {
  return problems.map(({ file, pointer, ...text }) => ({
    file,
    pointer,
    message: wordText(text, sources, language),
    ...(keepText && { key: text.key, ...(text.params && { params: text.params }) }),
  }));
}

/** Texts of a set's translations, as the checker's wording reads them (only what it needs). */
export function checkerTextsOf(translations: Partial<Record<string, TextTree>>): CheckerTexts {
  const texts: CheckerTexts = {};
  for (const language of LANGUAGES) {
    const tree = translations[language];
    const checker = tree?.checker;
    if (typeof checker === 'object') texts[language] = { checker };
  }
  return texts;
}

/**
 * Reports each of `names` (at `${at}/<index>`) that is not `known` (a test, or a set or map that
 * has it), with `message` of it. Names of a list that is not an array (absent, or a single value
 * checked elsewhere) are none.
 */
export function reportUnknown(
  report: Report,
  names: unknown,
  at: string,
  known: ((name: string) => boolean) | { has(name: string): boolean },
  message: (name: string) => ProblemText,
): void {
  if (!Array.isArray(names)) return;
  (names as string[]).forEach((name, i) => {
    if (!(typeof known === 'function' ? known(name) : known.has(name)))
      report(`${at}/${i}`, message(name));
  });
}

export const workflowFile = (id: string) => `workflows/${id}.json`;
export const schemaFile = (id: string) => `schemas/${id}.schema.json`;
export const catalogFile = (id: string) => `catalogs/${id}.json`;

/**
 * The definitions cannot be served: every problem found, each naming its file and pointer
 * (`problems`, worded); `said`, when the checker threw it, the same problems to word again in
 * another language.
 */
export class DefinitionsError extends Error {
  constructor(
    readonly problems: DefinitionProblem[],
    readonly said?: readonly SaidProblem[],
  ) {
    super(
      `Definitions are invalid:\n${problems.map((p) => `  ${p.file}#${p.pointer}: ${p.message}`).join('\n')}`,
    );
    this.name = 'DefinitionsError';
  }
}
