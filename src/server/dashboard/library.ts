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
import { runningDelegationsOf } from '../documents/delegations';
import type { AccountLookup } from '../documents/effect-context';
import { coveredDocuments } from '../documents/store/delegations';
import type { CompiledWorkflow } from '../documents/workflows';
import { documentFields } from './rows';

/**
 * My Library: every document the caller owns in the backend's workflows, deleted ones hidden,
 * and those a running delegation lets them act on, marked so with their holder's name.
 */
export async function searchLibrary(
  db: Kysely<Database>,
  workflows: ReadonlyMap<string, CompiledWorkflow>,
  principal: Principal,
  body: unknown,
  limits: SearchLimits,
  accounts?: AccountLookup,
): Promise<SearchResult<LibraryRow>> {
  const owned = anyOf(
    [...workflows.values()].map((w) => visibleTo(w.definition.id, ownVisibility(principal))),
  );
  const delegations = await runningDelegationsOf(
    db,
    accounts,
    workflows.values(),
    principal,
    new Date(),
  );
  const delegated = await coveredDocuments(db, delegations);
  const ids = [...delegated.keys()];
  const mine = ids.length ? sql<SqlBool>`(${owned} or id in (${sql.join(ids)}))` : owned;
  const scope = sql<SqlBool>`(${mine} and status <> ${DELETED})`;
  const fields = documentFields([...workflows.values()]);
  const { rows, page } = await searchHeaders(db, body, fields, scope, limits);
  return {
    items: rows.map((row) => {
      const line = libraryRow(row, workflows);
      const covered = delegated.get(row.id);
      if (!covered) return line;
      const holder = delegations.find((d) => d.holder === covered.owner);
      return { ...line, delegated: true as const, holderName: holder?.holder_name ?? null };
    }),
    ...page,
  };
}
