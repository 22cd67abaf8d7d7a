import type { Kysely } from 'kysely';
import { systemFieldsOf } from '../../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../../core/definitions/types';
import type { SchemaError } from '../../core/validation/field-errors';
import type { Database } from '../db/schema';
import type { ValidatorSet } from '../definitions/validators';
import type { FieldProblem } from '../http/api-error';
import { danglingReferences } from './references';

/** An entry that may be stored, or every reason it may not, field by field. */
export type EntryCheck =
  { entry: Record<string, unknown>; problems?: undefined } | { problems: FieldProblem[] };

/**
 * Whether a body may be stored as an entry of the catalogue: valid against its compiled schema,
 * its period in order, and every reference naming an entry valid at its start. What only the
 * system writes is dropped first. The one check behind a creation, an edit and an import.
 */
export async function checkEntry(
  db: Kysely<Database>,
  validators: ValidatorSet,
  catalog: CatalogDefinition,
  body: unknown,
): Promise<EntryCheck> {
  const checked = validEntry(validators, catalog, withoutSystemFields(catalog, body));
  if (checked.problems) return checked;
  const dangling = await danglingReferences(db, catalog, checked.entry);
  return dangling.length > 0 ? { problems: dangling } : checked;
}

/**
 * The body without the fields only the system writes (`readOnly`: a country's ISO codes): what a
 * caller sends there is not taken, on a creation as on an edit, whatever its value, and is never
 * a reason to refuse the rest (an edit keeps the stored values, `updateEntry`).
 */
function withoutSystemFields(catalog: CatalogDefinition, body: unknown): unknown {
  const system = systemFieldsOf(catalog);
  if (system.length === 0 || typeof body !== 'object' || body === null || Array.isArray(body))
    return body;
  return Object.fromEntries(Object.entries(body).filter(([name]) => !system.includes(name)));
}

/** Validates an entry with the catalogue's compiled schema, plus the period's order. */
function validEntry(
  validators: ValidatorSet,
  catalog: CatalogDefinition,
  body: unknown,
): EntryCheck {
  const validate = validators.get('catalog', catalog.id);
  if (!validate) throw new Error(`No validator for catalogue ${catalog.id}`);
  if (!validate(body)) {
    return {
      problems: ((validate.errors ?? []) as SchemaError[]).map((e) => ({
        path: e.instancePath,
        rule: e.keyword,
        params: e.params,
      })),
    };
  }
  const entry = body as Record<string, unknown>;
  if (entry.endTime && Date.parse(String(entry.endTime)) <= Date.parse(String(entry.startTime))) {
    return { problems: [{ path: '/endTime', rule: 'endAfterStart' }] };
  }
  return { entry };
}
