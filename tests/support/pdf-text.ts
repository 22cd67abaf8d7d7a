/**
 * Reads a PDF back as text, the way a reader's PDF viewer does (pdf.js, the extractor of
 * Firefox's viewer), and checks that what it says is readable: no translation key, no i18next
 * error, no raw status or enumeration code, no label without its value nor value without its
 * label, and no English in a French document (or French in an English one). Every PDF the portal
 * hands out goes through `assertReadablePdf` in its tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { PROJECT_ROOT } from '../../src/server/config';
import type { Language, TextTree } from '../../src/core/i18n/translate';

/** One text drawn on a page: its characters, where it starts, and its font size. */
export interface PdfRun {
  text: string;
  x: number;
  y: number;
  size: number;
}

/** The runs sharing a baseline, left to right: one line as a reader sees it. */
export interface PdfLine {
  page: number;
  y: number;
  runs: PdfRun[];
  /** The runs joined by a tab, so that a label and its value stay apart. */
  text: string;
}

export interface PdfText {
  pageCount: number;
  /** Every line, page by page, top to bottom. */
  lines: PdfLine[];
  /** Every line's text, one per line. */
  text: string;
  title: string | undefined;
  author: string | undefined;
  language: string | undefined;
}

/** The text of a PDF as pdf.js extracts it, grouped into lines by baseline. */
export async function extractPdfText(bytes: Uint8Array): Promise<PdfText> {
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  });
  const doc = await task.promise;
  try {
    const lines: PdfLine[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      const byBaseline = new Map<number, PdfRun[]>();
      for (const item of content.items) {
        if (!('str' in item) || (item as TextItem).str.trim() === '') continue;
        const { str, transform } = item as TextItem;
        const [size = 0, , , , x = 0, y = 0] = transform as number[];
        const key = Math.round(y * 10) / 10;
        const runs = byBaseline.get(key) ?? [];
        runs.push({ text: str, x, y, size });
        byBaseline.set(key, runs);
      }
      for (const [y, runs] of [...byBaseline.entries()].sort((a, b) => b[0] - a[0])) {
        runs.sort((a, b) => a.x - b.x);
        lines.push({ page: number, y, runs, text: runs.map((r) => r.text).join('\t') });
      }
    }
    const info = (await doc.getMetadata()).info as Record<string, unknown>;
    const string = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return {
      pageCount: doc.numPages,
      lines,
      text: lines.map((line) => line.text).join('\n'),
      title: string(info.Title),
      author: string(info.Author),
      language: string(info.Language),
    };
  } finally {
    await task.destroy();
  }
}

/**
 * The portal's texts of a language: translations/{lang}.json and translations/{lang}/*.json, but
 * the definitions checker's (checker.json): said only to analysts, they quote JSON names
 * (`/fees/total`) in every language, which are no words of it.
 */
export function textsOf(language: Language): TextTree {
  const folder = path.join(PROJECT_ROOT, 'translations');
  const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as TextTree;
  const tree: TextTree = { ...read(path.join(folder, `${language}.json`)) };
  for (const name of fs.readdirSync(path.join(folder, language))) {
    if (name.endsWith('.json') && name !== 'checker.json')
      tree[name.slice(0, -5)] = read(path.join(folder, language, name));
  }
  return tree;
}

interface Vocabulary {
  /** Lower-case words of each language's texts that the other language's texts never use. */
  only: Record<Language, Set<string>>;
  /** The first segments of translation keys (`visa-application`, `certificate`, `statuses`...). */
  roots: Set<string>;
  /** Status and enumeration codes (`ISSUED`, `MULTIPLE`...): shown raw, they are internals. */
  codes: Set<string>;
}

const WORD = /[\p{L}][\p{L}'’-]*/gu;

/** The words of a text, lower case, without `{{placeholders}}`. */
function wordsOf(text: string): string[] {
  return (text.replace(/\{\{[^}]*\}\}/g, ' ').match(WORD) ?? []).map((w) =>
    w.toLowerCase().replace(/['’-]+$/, ''),
  );
}

let vocabulary: Vocabulary | undefined;

function vocabularyOf(): Vocabulary {
  if (vocabulary) return vocabulary;
  const words: Record<Language, Set<string>> = { en: new Set(), fr: new Set() };
  const codes = new Set<string>();
  const walk = (tree: TextTree, language: Language, parent: string) => {
    for (const [key, value] of Object.entries(tree)) {
      if (parent === 'enum' || parent === 'statuses') codes.add(key);
      if (typeof value === 'string') {
        // An elided French word (l'immigration) is also its two halves.
        for (const word of wordsOf(value)) {
          words[language].add(word);
          for (const part of word.split(/['’-]/)) words[language].add(part);
        }
      } else walk(value, language, key);
    }
  };
  const en = textsOf('en');
  const fr = textsOf('fr');
  walk(en, 'en', '');
  walk(fr, 'fr', '');
  const only = (mine: Set<string>, theirs: Set<string>) =>
    new Set([...mine].filter((word) => !theirs.has(word) && word.length > 1));
  vocabulary = {
    only: { en: only(words.en, words.fr), fr: only(words.fr, words.en) },
    roots: new Set([...Object.keys(en), ...Object.keys(fr)]),
    codes: new Set([...codes].filter((code) => /^[A-Z][A-Z_ ]{2,}$/.test(code))),
  };
  return vocabulary;
}

export interface ReadableOptions {
  /** The language the document must be written in. */
  language: Language;
  /**
   * Labels the renderer prints, as they must read: each must start a line and be followed on
   * it by its value.
   */
  labels?: string[];
  /**
   * The x where the renderer starts values: a line starting there must continue a labelled
   * value above it (a wrapped value or the next item of a list), or it is a value without label.
   */
  valueX?: number;
  /**
   * Data the document prints as given (people's and places' names, catalogue entries), which is
   * in no particular language: left out of the language check.
   */
  names?: string[];
}

/** Texts that stand for a missing value rather than being one. */
const PLACEHOLDERS = new Set(['-', '–', '—', '?', 'undefined', 'null', 'NaN', '[object Object]']);
const URL_OR_MAIL = /\b(?:https?:\/\/\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)/g;
const KEY_LIKE = /\b[a-z][a-zA-Z0-9]*(?:-[a-zA-Z0-9]+)*(?:\.[A-Za-z_][\w-]*)+…?/g;
const I18NEXT_ERROR = /returned an object instead of string|key '[^']*' \([a-z]{2}\)/;

/** What is wrong with a PDF's text for a reader; empty when nothing is. */
export function readabilityProblems(pdf: PdfText, options: ReadableOptions): string[] {
  const { only, roots, codes } = vocabularyOf();
  const problems: string[] = [];
  const near = (a: number, b: number) => Math.abs(a - b) < 0.5;

  const nameWords = new Set((options.names ?? []).flatMap(wordsOf));
  for (const line of pdf.lines) {
    const where = `page ${line.page}, line "${line.text}"`;
    const plain = line.text.replace(URL_OR_MAIL, ' ');
    if (I18NEXT_ERROR.test(plain)) problems.push(`i18next error on ${where}`);
    for (const [match] of plain.matchAll(KEY_LIKE)) {
      const segments = match.replace(/…$/, '').split('.');
      if (roots.has(segments[0] ?? '') || segments.length > 2 || match.endsWith('…'))
        problems.push(`translation key "${match}" on ${where}`);
    }
    for (const run of line.runs) {
      if (PLACEHOLDERS.has(run.text.trim())) problems.push(`placeholder "${run.text}" on ${where}`);
      for (const token of run.text.split(/\s+/)) {
        const bare = token.replace(/^[(["']+|[)\]"',.:;]+$/g, '');
        if (codes.has(bare) && !nameWords.has(bare.toLowerCase()))
          problems.push(`raw code "${bare}" on ${where}`);
      }
    }
    // Words of the other language only, outside names, numbers and codes.
    const other: Language = options.language === 'fr' ? 'en' : 'fr';
    for (const token of plain.split(/\s+/)) {
      if (/\d/.test(token) || /^[^\p{Ll}]+$/u.test(token)) continue;
      for (const word of wordsOf(token)) {
        if (only[other].has(word) && !nameWords.has(word))
          problems.push(`${other === 'en' ? 'English' : 'French'} word "${word}" on ${where}`);
      }
    }
  }

  // Labels: each starts a line and has a value beside it.
  for (const label of options.labels ?? []) {
    const lines = pdf.lines.filter((line) => line.runs[0]?.text.trim() === label);
    if (lines.length === 0) problems.push(`label "${label}" is missing`);
    for (const line of lines) {
      const value = line.runs
        .slice(1)
        .map((run) => run.text.trim())
        .join(' ');
      if (value === '' || PLACEHOLDERS.has(value))
        problems.push(`label "${label}" has no value (page ${line.page})`);
    }
  }

  // Values: a line starting in the value column continues the labelled line above it.
  if (options.valueX !== undefined) {
    const valueX = options.valueX;
    pdf.lines.forEach((line, index) => {
      const first = line.runs[0];
      if (!first || !near(first.x, valueX)) return;
      let above = index - 1;
      while (above >= 0) {
        const previous = pdf.lines[above];
        if (!previous || previous.page !== line.page) break;
        const start = previous.runs[0];
        if (!start || !near(start.x, valueX)) break;
        above--;
      }
      const labelled = pdf.lines[above];
      const hasValue = labelled?.runs.slice(1).some((run) => near(run.x, valueX)) ?? false;
      if (!labelled || labelled.page !== line.page || !hasValue)
        problems.push(`value "${line.text}" has no label (page ${line.page})`);
    });
  }
  return problems;
}

/** Fails, listing every problem, unless the PDF's text reads as a finished document. */
export function assertReadablePdf(pdf: PdfText, options: ReadableOptions): void {
  const problems = readabilityProblems(pdf, options);
  if (problems.length > 0) {
    throw new Error(
      `The PDF does not read as a finished ${options.language} document:\n- ${problems.join('\n- ')}\n\nIts text:\n${pdf.text}`,
    );
  }
}
