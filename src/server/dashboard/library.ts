import { sql, type Kysely, type SqlBool } from 'kysely';
import type { LibraryRow } from '../../core/dashboard/types';
import type { SearchResult } from '../../core/search/protocol';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ownVisibility } from '../documents/access';
import {
  anyOf,
  DELETED,
  searchHeaders,
  visibleTo,
  type SearchLimits,
} from '../documents/store/lists';
import { libraryRow } from '../documents/views';
import type { CompiledWorkflow } from '../documents/workflows';
import { documentFields } from './rows';

/** My Library: every document the caller owns in the backend's workflows, deleted ones hidden. */
export async function searchLibrary(
  db: Kysely<Database>,
  workflows: ReadonlyMap<string, CompiledWorkflow>,
  principal: Principal,
  body: unknown,
  limits: SearchLimits,
): Promise<SearchResult<LibraryRow>> {
  const owned = anyOf(
    [...workflows.values()].map((w) => visibleTo(w.definition.id, ownVisibility(principal))),
  );
  const scope = sql<SqlBool>`(${owned} and status <> ${DELETED})`;
  const fields = documentFields([...workflows.values()]);
  const { rows, page } = await searchHeaders(db, body, fields, scope, limits);
  return { items: rows.map((row) => libraryRow(row, workflows)), ...page };
}
