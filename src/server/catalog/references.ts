import type { Kysely } from 'kysely';
import { referencedCatalog, type CatalogDefinition } from '../../core/definitions/types';
import type { Database } from '../db/schema';
import type { FieldProblem } from '../http/api-error';
import { validEntry } from './valid-at';

/** The reference fields of an entry naming no entry valid at its start (empty ones pass). */
export async function danglingReferences(
  db: Kysely<Database>,
  catalog: CatalogDefinition,
  entry: Record<string, unknown>,
): Promise<FieldProblem[]> {
  const at = new Date(String(entry.startTime));
  const problems: FieldProblem[] = [];
  for (const [field, reference] of Object.entries(catalog.references ?? {})) {
    const value = entry[field];
    if (value === undefined || value === null || value === '') continue;
    const target = referencedCatalog(reference, entry);
    if (!(await validEntry(db, target, String(value), at)))
      problems.push({ path: `/${field}`, rule: 'referenceUnknown', params: { catalog: target } });
  }
  return problems;
}
