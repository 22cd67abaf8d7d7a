import type { ErrorSchema } from '@rjsf/utils';
import type { FieldError } from '../../core/api/errors';
import { translate, type Language } from '../../core/i18n/translate';
import { resolvePointer, runRules } from '../../core/rules/registry';
import { sectionOfPath } from '../../core/rules/sections';
import type { RuleUse } from '../../core/rules/types';
import { toFieldErrors, type SchemaError } from '../../core/validation/field-errors';
import type { JsonSchema } from '../../core/definitions/types';
import { allProperties, asObject, schemaType, type Texts } from './texts';
import type { DocumentData, PrecompiledValidate } from './types';

/** The schema's errors; those that only say a sub-schema failed are left out by toFieldErrors. */
function schemaErrors(validate: PrecompiledValidate | undefined, data: unknown): SchemaError[] {
  if (!validate || validate(data)) return [];
  return validate.errors ?? [];
}

/** How many levels of missing groups are opened before the errors are taken as they are. */
const GROUP_DEPTH = 4;

/**
 * The schema errors, a missing required group checked as an empty one: each error then names one
 * of its required fields ("Family name") rather than the whole group ("Applicant").
 */
function fieldSchemaErrors(
  validate: PrecompiledValidate | undefined,
  data: unknown,
  form: FormSchemas | undefined,
): SchemaError[] {
  let checked = data;
  let errors = schemaErrors(validate, checked);
  for (let depth = 0; form && depth < GROUP_DEPTH; depth++) {
    const groups = errors
      .filter((e) => e.keyword === 'required' && typeof e.params.missingProperty === 'string')
      .map((e) => `${e.instancePath}/${String(e.params.missingProperty)}`)
      .filter((pointer) => isGroupAt(form, pointer));
    if (groups.length === 0) break;
    for (const pointer of groups) checked = withEmptyGroup(checked, pointerSegments(pointer));
    errors = schemaErrors(validate, checked);
  }
  return errors;
}

/** An entity's schema and uiSchema, as the form draws them. */
export interface FormSchemas {
  schema: JsonSchema;
  uiSchema?: JsonSchema;
}

/** Whether the value at a pointer is an object the form shows field by field (not a file's). */
function isGroupAt(form: FormSchemas, pointer: string): boolean {
  let node: JsonSchema | undefined = form.schema;
  let ui: JsonSchema | undefined = form.uiSchema;
  for (const segment of pointerSegments(pointer)) {
    if (!node) return false;
    const items = asObject(node.items);
    if (/^\d+$/.test(segment) && items) {
      node = items;
      ui = asObject(ui?.items);
    } else {
      node = allProperties(node).find(([name]) => name === segment)?.[1];
      ui = asObject(ui?.[segment]);
    }
  }
  const drawnWhole = ui?.['ui:widget'] !== undefined || ui?.['ui:field'] !== undefined;
  return node !== undefined && schemaType(node) === 'object' && !drawnWhole;
}

/** The data with an empty object at the place of `segments` (copied along the way). */
function withEmptyGroup(data: unknown, segments: readonly string[]): unknown {
  const [head, ...rest] = segments;
  if (head === undefined) return data === undefined ? {} : data;
  if (Array.isArray(data)) {
    const copy = [...(data as unknown[])];
    copy[Number(head)] = withEmptyGroup(copy[Number(head)], rest);
    return copy;
  }
  const node = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  return { ...node, [head]: withEmptyGroup(node[head], rest) };
}

/** The schema's errors, then the rules' problems, as field errors in `language`. */
function fieldErrors(
  errors: SchemaError[],
  uses: readonly RuleUse[],
  data: unknown,
  texts: Texts,
  language: Language,
): FieldError[] {
  return [
    ...toFieldErrors(errors, texts, language),
    ...runRules(uses, data).map((problem): FieldError => ({
      path: problem.path,
      rule: problem.rule,
      message: translate(texts, language, problem.message, problem.params),
    })),
  ];
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
  const ownRules = uses.filter((use) => sectionOfPath(use.path) === sectionId);
  const errors = schemaErrors(validate, { [sectionId]: document[sectionId] });
  return fieldErrors(errors, ownRules, document, texts, language);
}

/**
 * The whole document's errors and every rule's; without the document's validator, from the
 * sections' validators given by id (those loaded).
 */
export function validateDocument(
  validate: PrecompiledValidate | Record<string, PrecompiledValidate | undefined>,
  uses: readonly RuleUse[],
  document: DocumentData,
  texts: Texts,
  language: Language,
  form?: FormSchemas,
): FieldError[] {
  const errors =
    typeof validate === 'function'
      ? fieldSchemaErrors(validate, document, form)
      : Object.entries(validate).flatMap(([id, section]) =>
          fieldSchemaErrors(section, { [id]: document[id] }, form),
        );
  return fieldErrors(errors, uses, document, texts, language);
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
  // An item changed: its list's errors (minItems, allAnswered) show too.
  return touched.has(path) || [...touched].some((place) => place.startsWith(`${path}/`));
}

/**
 * The errors still standing once the document went from `before` to `after`: one at, inside or
 * around a field whose answer changed has been answered; empty groups a form fills answer nothing.
 */
export function unansweredErrors(
  errors: readonly FieldError[],
  before: unknown,
  after: unknown,
): FieldError[] {
  const changed = changedPaths(before, after).filter(
    (path) => !sameAnswers(resolvePointer(before, path), resolvePointer(after, path)),
  );
  const within = (path: string, place: string) => path === place || path.startsWith(`${place}/`);
  return errors.filter(
    (error) => !changed.some((place) => within(error.path, place) || within(place, error.path)),
  );
}

/** Pointers of the leaves that differ between two values. */
export function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (before === after) return [];
  const here = prefix || '/';
  if (!isContainer(before) || !isContainer(after) || Array.isArray(before) !== Array.isArray(after))
    return [here];
  // A list that grew or shrank changed as a whole too.
  const resized = Array.isArray(before) && Array.isArray(after) && before.length !== after.length;
  return [
    ...(resized ? [here] : []),
    ...keysOf(before, after).flatMap((key) =>
      changedPaths(before[key], after[key], `${prefix}/${key}`),
    ),
  ];
}

const isContainer = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null;

/** The keys of either of two objects (or lists), each once. */
const keysOf = (a: object, b: object) => [...new Set([...Object.keys(a), ...Object.keys(b)])];

/** Nothing a person entered: no value, an empty text, or a list or group holding nothing. */
function isEmptyAnswer(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.every(isEmptyAnswer);
  if (typeof value === 'object') return Object.values(value).every(isEmptyAnswer);
  return false;
}

/**
 * Whether two values hold the same answers, empty ones aside: the empty groups and texts a form
 * fills in as it opens are no unsaved change.
 */
export function sameAnswers(before: unknown, after: unknown): boolean {
  if (isEmptyAnswer(before) && isEmptyAnswer(after)) return true;
  if (!isContainer(before) || !isContainer(after)) return before === after;
  if (Array.isArray(before) !== Array.isArray(after)) return false;
  if (Array.isArray(before) && Array.isArray(after))
    return before.length === after.length && before.every((item, i) => sameAnswers(item, after[i]));
  return keysOf(before, after).every((key) => sameAnswers(before[key], after[key]));
}
