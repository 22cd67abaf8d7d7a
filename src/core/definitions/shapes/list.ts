/** A workflow's list: a finder of its documents, with fixed conditions and columns. */
import { FILTER_CRITERIA } from '../../search/criteria';
import {
  choice,
  countKey,
  dataPointer,
  fieldName,
  identifier,
  loosePointer,
  scalar,
  some,
  someRoles,
  strict,
  strings,
  textKey,
  Type,
  type Static,
} from './kit';

export const ListColumn = strict({
  /** One of DOCUMENT_LIST_COLUMNS (workflow.ts), or the name of a data field given by `pointer`. */
  field: fieldName,
  /** JSON pointer into the document data, when the column is a data field. */
  pointer: Type.Optional(loosePointer),
  /** Translation key of the header. */
  label: textKey,
  /** `money`: an amount shown with two decimals and its currency, as the reader's language writes it. */
  format: Type.Optional(choice(['money'])),
});
export type ListColumn = Static<typeof ListColumn>;

/**
 * A fixed condition of a list (`where`): a FilterCondition naming a field of the workflow's
 * schema by its JSON pointer; check-list-filters.ts checks each pointer against the schema and
 * each value against the criterion.
 */
export const ListCondition = strict({
  pointer: dataPointer,
  criterion: choice(FILTER_CRITERIA),
  value: Type.Optional(scalar),
  valueTo: Type.Optional(scalar),
});
export type ListCondition = Static<typeof ListCondition>;

export const WorkflowList = strict({
  id: identifier,
  /** Route below the workflow's prefix ('' for the main finder). */
  path: Type.String({ pattern: '^((/[a-z0-9-]+)+)?$' }),
  roles: someRoles,
  /** Statuses shown; empty or absent means every status but DELETED. */
  status: Type.Optional(strings),
  assignment: Type.Optional(choice(['me', 'unassigned', 'assigned'])),
  /**
   * Conditions on the data every document of the list meets, all of them (the active accounts:
   * `/access/activationStatus` equals `active`). The server adds them to the list's scope like
   * `status` and `assignment`.
   */
  where: Type.Optional(some(ListCondition)),
  columns: Type.Array(ListColumn),
  /** Screen path (relative, with :id) a row opens. */
  open: Type.String(),
  /** Translation key of the menu entry (within its workflow's menu folder). */
  label: textKey,
  /**
   * Translation key naming the list wherever it is not under its workflow's menu folder (the
   * dashboard's links, its own page's heading): "Find visa applications" where the menu says
   * "Find". Default: `label`.
   */
  title: Type.Optional(textKey),
  /**
   * Translation key of the list's count ("2 accounts"): `<key>_one`, `<key>_other`,
   * `<key>More_one`, `<key>More_other`; by default the workflow's `count`, else "documents".
   */
  count: Type.Optional(countKey),
  /**
   * The menu entry shows how many of the list's documents meet this condition (the inbox's
   * unread messages: status not READ), when there are any.
   */
  badge: Type.Optional(
    strict({ field: fieldName, criterion: choice(['equals', 'notEquals']), value: scalar }),
  ),
});
export type WorkflowList = Static<typeof WorkflowList>;
export type AssignmentFilter = NonNullable<WorkflowList['assignment']>;
