import type { FieldError } from '../api/errors';
import { NAMED_PATTERNS } from './named-patterns';
import { translate, type Language, type TextTree } from '../i18n/translate';

/** The part of an Ajv error we read; the standalone validators in the browser produce the same. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/**
 * Turns schema errors into per-field messages chosen by rule name from the translation texts
 * (`validation.<rule>`), never Ajv's own English. Server and browser share this function.
 */
export function toFieldErrors(
  errors: readonly SchemaError[],
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
): FieldError[] {
  const fields: FieldError[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const rule = ruleName(error);
    const path = fieldPath(error);
    if (seen.has(`${path} ${rule}`)) continue;
    seen.add(`${path} ${rule}`);
    fields.push({
      path,
      rule,
      message: translate(texts, language, `validation.${rule}`, error.params),
    });
  }
  return fields;
}

function fieldPath(error: SchemaError): string {
  // Ajv reports these on the parent object; the field is the one named in params.
  const child =
    error.keyword === 'required'
      ? error.params.missingProperty
      : error.keyword === 'additionalProperties'
        ? error.params.additionalProperty
        : undefined;
  if (typeof child === 'string') return `${error.instancePath}/${child}`;
  return error.instancePath || '/';
}

function ruleName(error: SchemaError): string {
  if (error.keyword === 'format')
    return `format_${String(error.params.format).replaceAll('-', '_')}`;
  if (error.keyword === 'pattern') return NAMED_PATTERNS[String(error.params.pattern)] ?? 'pattern';
  return error.keyword;
}
