import type { Kysely } from 'kysely';
import { referencedCatalog, type CatalogDefinition } from '../../core/definitions/types';
import type { Database } from '../db/schema';
import type { FieldProblem } from '../http/api-error';
import { isValidAt } from './valid-at';

/**
 * The reference fields of an entry that name no entry valid at the entry's start: a document's
 * binder, a declaration's document or sub-document, a block's country. An empty optional
 * reference names nothing and passes; whether it is required is the schema's business.
 */
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
    if (!(await isValidAt(db, target, String(value), at)))
      problems.push({ path: `/${field}`, rule: 'referenceUnknown', params: { catalog: target } });
  }
  return problems;
}
