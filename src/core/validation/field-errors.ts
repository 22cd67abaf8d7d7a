import type { FieldError } from '../api/errors';
import { NAMED_PATTERNS } from './named-patterns';
import { translate, type Language, type TextTree } from '../i18n/translate';

/** The part of an Ajv error we read; the standalone validators in the browser produce the same. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** Schema errors as per-field messages from the texts (`validation.<rule>`), never Ajv's English. */
export function toFieldErrors(
  errors: readonly SchemaError[],
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
): FieldError[] {
  const fields: FieldError[] = [];
  const seen = new Set<string>();
  for (const error of shownErrors(errors)) {
    const rule = ruleName(error.keyword, error.params);
    const path = fieldPath(error);
    if (seen.has(`${path} ${rule}`)) continue;
    seen.add(`${path} ${rule}`);
    const params = messageParams(error, texts, language);
    fields.push({ path, rule, message: translate(texts, language, `validation.${rule}`, params) });
  }
  return fields;
}

/** Ajv's parameters, a type named as the language names it ("a number"). */
function messageParams(
  error: SchemaError,
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
): Record<string, unknown> {
  const { type } = error.params;
  if (error.keyword !== 'type' || (typeof type !== 'string' && !Array.isArray(type)))
    return error.params;
  // One type ("string"), or several: an array, or a comma list in some Ajv versions.
  const named = (Array.isArray(type) ? type.map(String) : type.split(',')).map((one) =>
    translate(texts, language, `validation.typeNames.${one}`),
  );
  return {
    ...error.params,
    type: named.join(translate(texts, language, 'validation.typeNames.or')),
  };
}

/** The errors a person is shown: without the `if`/`anyOf`/`oneOf` errors that come with their branches'. */
export function shownErrors(errors: readonly SchemaError[]): SchemaError[] {
  const within = (error: SchemaError, other: SchemaError) =>
    other !== error &&
    (other.instancePath === error.instancePath ||
      other.instancePath.startsWith(`${error.instancePath}/`));
  return errors.filter((error) => {
    if (error.keyword === 'if') return false;
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf')
      return !errors.some((other) => within(error, other) && !UMBRELLAS.has(other.keyword));
    return true;
  });
}
const UMBRELLAS = new Set(['if', 'anyOf', 'oneOf']);

function fieldPath(error: SchemaError): string {
  // Ajv reports these on the parent object; the field is the one named in params.
  const child =
    error.keyword === 'required' ||
    error.keyword === 'dependencies' ||
    error.keyword === 'dependentRequired'
      ? error.params.missingProperty
      : error.keyword === 'additionalProperties'
        ? error.params.additionalProperty
        : undefined;
  if (typeof child === 'string') return `${error.instancePath}/${child}`;
  return error.instancePath || '/';
}

/** The rule a failed keyword is shown as (a format and a named pattern have one each). */
export function ruleName(keyword: string, params: Record<string, unknown>): string {
  if (keyword === 'format') return `format_${String(params.format).replaceAll('-', '_')}`;
  if (keyword === 'pattern') return NAMED_PATTERNS[String(params.pattern)] ?? 'pattern';
  // A sub-schema that is `false`: nothing is allowed there.
  if (keyword === 'false schema') return 'falseSchema';
  return keyword;
}
