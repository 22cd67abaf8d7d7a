import type { Kysely } from 'kysely';
import { systemFieldsOf } from '../../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../../core/definitions/types';
import type { SchemaError } from '../../core/validation/field-errors';
import type { Database } from '../db/schema';
import type { ValidatorSet } from '../definitions/validators';
import { problemsOf, type FieldProblem } from '../http/api-error';
import { danglingReferences } from './references';

/** An entry that may be stored, or every reason it may not, field by field. */
type EntryCheck =
  { entry: Record<string, unknown>; problems?: undefined } | { problems: FieldProblem[] };

/**
 * Whether a body may be stored as an entry: valid, its period in order, and its references valid
 * at its start; system fields dropped first. Behind a creation, an edit and an import.
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

/** The body without the fields only the system writes: never taken, never refused. */
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
  if (!validate(body)) return { problems: problemsOf((validate.errors ?? []) as SchemaError[]) };
  const entry = body as Record<string, unknown>;
  if (entry.endTime && Date.parse(String(entry.endTime)) <= Date.parse(String(entry.startTime)))
    return { problems: [{ path: '/endTime', rule: 'endAfterStart' }] };
  return { entry };
}
