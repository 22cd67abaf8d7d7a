import type { ErrorSchema } from '@rjsf/utils';
import type { FieldError } from '../../core/api/errors';
import { translate, type Language } from '../../core/i18n/translate';
import { runRules } from '../../core/rules/registry';
import { sectionOfPath } from '../../core/rules/sections';
import type { RuleUse } from '../../core/rules/types';
import { toFieldErrors, type SchemaError } from '../../core/validation/field-errors';
import type { Texts } from './texts';
import type { DocumentData, PrecompiledValidate } from './types';

/** The schema's errors; those that only say a sub-schema failed are left out by toFieldErrors. */
function schemaErrors(validate: PrecompiledValidate | undefined, data: unknown): SchemaError[] {
  if (!validate || validate(data)) return [];
  return validate.errors ?? [];
}

function ruleErrors(uses: readonly RuleUse[], data: unknown, texts: Texts, language: Language) {
  return runRules(uses, data).map((problem): FieldError => ({
    path: problem.path,
    rule: problem.rule,
    message: translate(texts, language, problem.message, problem.params),
  }));
}

/** Errors of one section only: its schema and the named rules whose path lies in it. */
export function validateSection(
  sectionId: string,
  validate: PrecompiledValidate | undefined,
  uses: readonly RuleUse[],
  document: DocumentData,
  texts: Texts,
  language: Language,
): FieldError[] {
  const data = { [sectionId]: document[sectionId] };
  return [
    ...toFieldErrors(schemaErrors(validate, data), texts, language),
    ...ruleErrors(
      uses.filter((use) => sectionOfPath(use.path) === sectionId),
      document,
      texts,
      language,
    ),
  ];
}

export function validateDocument(
  validate: PrecompiledValidate,
  uses: readonly RuleUse[],
  document: DocumentData,
  texts: Texts,
  language: Language,
): FieldError[] {
  return [
    ...toFieldErrors(schemaErrors(validate, document), texts, language),
    ...ruleErrors(uses, document, texts, language),
  ];
}

export function pointerSegments(pointer: string): string[] {
  return pointer
    .replace(/^\//, '')
    .split('/')
    .filter((s) => s.length > 0)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** Field errors as RJSF's ErrorSchema (`{applicant: {familyName: {__errors: [...]}}}`). */
export function toErrorSchema(errors: readonly FieldError[]): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const error of errors) {
    let node = root;
    for (const segment of pointerSegments(error.path)) {
      node[segment] ??= {};
      node = node[segment] as Record<string, unknown>;
    }
    const list = (node.__errors ??= []) as string[];
    if (!list.includes(error.message)) list.push(error.message);
  }
  return root as ErrorSchema;
}

/** Whether an error at `path` is to be shown, given the touched pointers. */
export function isShown(path: string, touched: ReadonlySet<string>): boolean {
  if (touched.has(path)) return true;
  for (const place of touched) {
    // An item changed: its list's errors (minItems, allAnswered) show too.
    if (place.startsWith(`${path}/`)) return true;
  }
  return false;
}

/** Pointers of the leaves that differ between two values. */
export function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (before === after) return [];
  const isContainer = (v: unknown) => typeof v === 'object' && v !== null;
  if (
    !isContainer(before) ||
    !isContainer(after) ||
    Array.isArray(before) !== Array.isArray(after)
  ) {
    return [prefix || '/'];
  }
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const paths: string[] = [];
  if (Array.isArray(before) && (before as unknown[]).length !== (after as unknown[]).length) {
    paths.push(prefix || '/');
  }
  for (const key of keys) paths.push(...changedPaths(a[key], b[key], `${prefix}/${key}`));
  return paths;
}

/** Nothing a person entered: no value, an empty text, or a list or group holding nothing. */
function isEmptyAnswer(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.every(isEmptyAnswer);
  if (typeof value === 'object') return Object.values(value).every(isEmptyAnswer);
  return false;
}

/**
 * Whether two values hold the same answers, empty ones aside. A form fills in empty groups,
 * lists and texts as it opens; that loses nothing if the person leaves, so it must not count as
 * an unsaved change (and must not ask "continue without saving" of someone who typed nothing).
 */
export function sameAnswers(before: unknown, after: unknown): boolean {
  if (isEmptyAnswer(before) && isEmptyAnswer(after)) return true;
  if (typeof before !== 'object' || typeof after !== 'object' || !before || !after)
    return before === after;
  if (Array.isArray(before) !== Array.isArray(after)) return false;
  if (Array.isArray(before) && Array.isArray(after))
    return before.length === after.length && before.every((item, i) => sameAnswers(item, after[i]));
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].every((key) =>
    sameAnswers(a[key], b[key]),
  );
}

/**
 * The whole document's errors from the sections whose validators are loaded (the whole
 * document's validator not yet arrived), and every named rule.
 */
export function validateLoadedSections(
  sectionValidator: (sectionId: string) => PrecompiledValidate | undefined,
  sectionIds: readonly string[],
  uses: readonly RuleUse[],
  document: DocumentData,
  texts: Texts,
  language: Language,
): FieldError[] {
  const schema = sectionIds.flatMap((id) =>
    schemaErrors(sectionValidator(id), { [id]: document[id] }),
  );
  return [
    ...toFieldErrors(schema, texts, language),
    ...ruleErrors(uses, document, texts, language),
  ];
}
