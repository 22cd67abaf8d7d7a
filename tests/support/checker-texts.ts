/**
 * The project's checker texts (translations/<language>/checker.json), for unit tests that call
 * one check directly: a check says its problems by key, and the checker words them on the way
 * out (src/server/definitions/problems.ts); these word them as the checker would.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Language, TextTree } from '../../src/core/i18n/translate';
import {
  wordProblems,
  type CheckerTexts,
  type DefinitionProblem,
  type SaidProblem,
} from '../../src/server/definitions/problems';

const ROOT = join(import.meta.dirname, '..', '..');

export function projectCheckerTexts(): CheckerTexts {
  const texts: CheckerTexts = {};
  for (const language of ['en', 'fr'] as const) {
    const file = join(ROOT, 'translations', language, 'checker.json');
    texts[language] = { checker: JSON.parse(readFileSync(file, 'utf8')) as TextTree };
  }
  return texts;
}

/** Problems a check found, worded as the checker words them (English by default). */
export function worded(
  problems: readonly SaidProblem[],
  language: Language = 'en',
): DefinitionProblem[] {
  return wordProblems(problems, projectCheckerTexts(), language);
}
