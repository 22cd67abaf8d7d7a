import type { Kysely } from 'kysely';
import type { ScreeningHit } from '../../core/documents/types';
import type { CatalogDefinition } from '../../core/definitions/types';
import { DEFAULT_LANGUAGE, type Language } from '../../core/i18n/translate';
import { holdsAnyRole, type Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { visibleRow } from './commands';
import { hitsOf } from './screening';
import type { CompiledWorkflow } from './workflows';

/**
 * A document's screening hits, for the officers who see every document of its type (its
 * `seeAll` roles); anyone else who sees it (its owner) is refused: the block lists are never
 * shown to an applicant. A document the caller may not see is a 404, as everywhere.
 */
export async function screeningHits(
  db: Kysely<Database>,
  workflow: CompiledWorkflow,
  catalogs: ReadonlyMap<string, CatalogDefinition>,
  principal: Principal,
  id: string,
  language: Language,
): Promise<{ items: ScreeningHit[] }> {
  const row = await visibleRow(db, workflow, principal, id);
  if (!holdsAnyRole(principal, workflow.seeAllRoles))
    throw new ApiProblem(403, ERROR_CODES.forbidden);
  const rows = await hitsOf(db, row.id);
  return {
    items: rows.map((hit) => ({
      id: hit.id,
      catalog: hit.catalog,
      catalogTitle: catalogTitle(catalogs.get(hit.catalog), language) ?? hit.catalog,
      entryKey: hit.entry_key,
      reason: translated(hit.entry, 'reason', language),
      matched: hit.matched,
      action: hit.action,
      outcome: hit.outcome,
      at: new Date(hit.screened_at).toISOString(),
    })),
  };
}

function catalogTitle(catalog: CatalogDefinition | undefined, language: Language) {
  const labels = catalog?.labels as Record<string, { title?: string }> | undefined;
  return labels?.[language]?.title ?? labels?.[DEFAULT_LANGUAGE]?.title;
}

/** A field of an entry in the reader's language (its `i18n` translation), else as written. */
function translated(entry: Record<string, unknown>, field: string, language: Language) {
  const i18n = entry.i18n as Record<string, Record<string, unknown>> | undefined;
  const value = i18n?.[language]?.[field] ?? entry[field];
  return typeof value === 'string' && value ? value : null;
}
