import type { RawBuilder } from 'kysely';
import type { WorkflowList } from '../../core/documents/workflow';
import { nameSearchSql } from '../db/name-search';
import { invalid } from '../search/compile-search';

/** The longest name a search takes: longer than any name the schemas allow. */
export const NAME_SEARCH_MAX_LENGTH = 200;

/**
 * A search's `name` (docs/lists.md, "Name search"), on a list declaring `nameSearch`: the
 * condition keeping the documents whose names come close to it, and their closeness as the
 * order. Absent or blank, nothing; on a list without a name search, or not a text, a 400.
 */
export function nameSearchOf(
  list: WorkflowList | undefined,
  asked: unknown,
): { matches: RawBuilder<boolean>; distance: RawBuilder<number> } | undefined {
  if (asked === undefined || asked === null) return undefined;
  if (typeof asked !== 'string')
    throw invalid([{ path: '/name', rule: 'type', params: { type: 'string' } }]);
  const name = asked.trim();
  if (name === '') return undefined;
  if (!list?.nameSearch) throw invalid([{ path: '/name', rule: 'nameSearchNotOffered' }]);
  if (name.length > NAME_SEARCH_MAX_LENGTH)
    throw invalid([
      { path: '/name', rule: 'maxLength', params: { limit: NAME_SEARCH_MAX_LENGTH } },
    ]);
  return nameSearchSql(list.nameSearch, name);
}
