import type { Kysely } from 'kysely';
import { documentChoiceFieldsOf } from '../../core/definitions/document-choices';
import type { EntityDefinition } from '../../core/definitions/types';
import { resolvePointer } from '../../core/rules/registry';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES, type FieldProblem } from '../http/api-error';
import { codesAt } from './catalog-fields';
import { perObject } from './memo';
import { dataOrderedBy, existingKeys } from './store/lookups';

// The server's half of core/definitions/document-choices.ts: codes must name live documents.

/** At most this many choices: the largest list a field of this kind holds (an access unit's). */
const CHOICES_LIMIT = 500;

const fieldsOf = perObject(documentChoiceFieldsOf);

/** A problem for each code naming no existing document; empty values pass. */
export async function documentChoiceProblems(
  db: Kysely<Database>,
  entity: EntityDefinition,
  data: Record<string, unknown>,
): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  for (const field of fieldsOf(entity)) {
    const given = codesAt(data, field.segments, field.many);
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
