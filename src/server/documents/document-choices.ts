import type { Kysely } from 'kysely';
import {
  documentChoiceFieldsOf,
  type DocumentChoiceField,
} from '../../core/definitions/document-choices';
import type { EntityDefinition } from '../../core/definitions/types';
import { resolvePointer } from '../../core/rules/registry';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES, type FieldProblem } from '../http/api-error';
import { dataOrderedBy, existingKeys } from './store/lookups';

// The server's half of core/definitions/document-choices.ts: codes must name live documents.

/** At most this many choices: the largest list a field of this kind holds (an access unit's). */
const CHOICES_LIMIT = 500;

const fieldCache = new WeakMap<EntityDefinition, DocumentChoiceField[]>();
function fieldsOf(entity: EntityDefinition): DocumentChoiceField[] {
  let fields = fieldCache.get(entity);
  if (!fields) {
    fields = documentChoiceFieldsOf(entity);
    fieldCache.set(entity, fields);
  }
  return fields;
}

/** Each string value at a field's place, with the pointer of the field holding it. */
function valuesAt(
  data: unknown,
  segments: readonly string[],
  many: boolean,
  pointer = '',
): Array<[string, string]> {
  if (segments.length === 0)
    return typeof data === 'string' && data !== '' ? [[pointer, data]] : [];
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    if (!Array.isArray(data)) return [];
    // The choices' own array reports at the field, not at each item: the widget is the field.
    const last = many && rest.length === 0;
    return data.flatMap((item, index) =>
      valuesAt(item, rest, many, last ? pointer : `${pointer}/${index}`),
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !(head in data))
    return [];
  return valuesAt((data as Record<string, unknown>)[head], rest, many, `${pointer}/${head}`);
}

/** A problem for each code naming no existing document; empty values pass. */
export async function documentChoiceProblems(
  db: Kysely<Database>,
  entity: EntityDefinition,
  data: Record<string, unknown>,
): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  for (const field of fieldsOf(entity)) {
    const given = valuesAt(data, field.segments, field.many);
    const codes = [...new Set(given.map(([, code]) => code))];
    const known = await existingKeys(db, field.document, field.code, codes);
    for (const [path, code] of given) {
      if (!known.has(code)) {
        problems.push({
          path,
          rule: field.unknownMessage.replace(/^validation\./, ''),
          params: { code },
        });
      }
    }
  }
  return problems;
}

export interface DocumentChoice {
  code: string;
  name: string;
}

/** The documents a field of `entity` may name, for its form; 404 when no field names that type. */
export async function documentChoiceOptions(
  db: Kysely<Database>,
  entity: EntityDefinition,
  document: string,
): Promise<{ items: DocumentChoice[] }> {
  const field = fieldsOf(entity).find((f) => f.document === document);
  if (!field) throw new ApiProblem(404, ERROR_CODES.notFound);
  const rows = await dataOrderedBy(db, field.document, field.code, CHOICES_LIMIT);
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    items: rows
      .map((data) => ({
        code: text(resolvePointer(data, field.code)),
        name: field.label ? text(resolvePointer(data, field.label)) : '',
      }))
      .filter((choice) => choice.code !== ''),
  };
}
