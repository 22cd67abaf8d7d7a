import { sql, type Kysely, type SqlBool } from 'kysely';
import type { LibraryRow } from '../../core/dashboard/types';
import type { SearchResult } from '../../core/search/protocol';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import type { CompiledWorkflow } from '../documents/workflows';
import { DELETED, documentFields, libraryRow, pagedSearch } from './rows';

/**
 * My Library: every document the caller owns (the token's subject), of every workflow of the
 * backend, newest change first unless the body sorts otherwise. Ownership alone decides: a
 * document one owns is one's own whatever roles one holds today. Deleted documents stay hidden,
 * as in every list. Served by the (type, owner, updated_at) index.
 */
export async function searchLibrary(
  db: Kysely<Database>,
  workflows: ReadonlyMap<string, CompiledWorkflow>,
  principal: Principal,
  body: unknown,
  maxItems: number,
): Promise<SearchResult<LibraryRow>> {
  const types = [...workflows.keys()];
  const scope = types.length
    ? sql<SqlBool>`(type in (${sql.join(types)}) and owner = ${principal.subject} and status <> ${DELETED})`
    : sql<SqlBool>`false`;
  const { rows, page } = await pagedSearch(
    db,
    body,
    documentFields([...workflows.values()]),
    scope,
    maxItems,
  );
  return { items: rows.map((row) => libraryRow(row, workflows)), ...page };
}
