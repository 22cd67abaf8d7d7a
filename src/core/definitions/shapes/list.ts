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
import { ListFlagFilter } from './case-work';

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

/** A fixed condition of a list (`where`): a FilterCondition on a field named by its JSON pointer. */
export const ListCondition = strict({
  pointer: dataPointer,
  criterion: choice(FILTER_CRITERIA),
  value: Type.Optional(scalar),
  valueTo: Type.Optional(scalar),
});

/**
 * A name search box on a list: the data fields it searches, each compared folded (case, marks,
 * apostrophes such as the ʻokina, hyphens as spaces), with `alike` spellings taken as one, and
 * its matches ranked by how close their names come (docs/lists.md, "Name search").
 */
export const ListNameSearch = strict({
  /** JSON pointers of the text fields searched together (family, given and other names). */
  pointers: some(dataPointer),
  /**
   * Spellings taken as the same, each `[written, taken as]` in lower case, applied in order
   * after folding: `["g", "k"]` makes Tuilagi and Tuilaki one name.
   */
  alike: Type.Optional(
    some(Type.Tuple([Type.String({ minLength: 1, maxLength: 8 }), Type.String({ maxLength: 8 })])),
  ),
  /** Translation key of the box's label (default: "Search by name"). */
  label: Type.Optional(textKey),
});
export type ListNameSearch = Static<typeof ListNameSearch>;

export const WorkflowList = strict({
  id: identifier,
  /** Route below the workflow's prefix ('' for the main finder). */
  path: Type.String({ pattern: '^((/[a-z0-9-]+)+)?$' }),
  roles: someRoles,
  /** Statuses shown; empty or absent means every status but DELETED. */
  status: Type.Optional(strings),
  assignment: Type.Optional(choice(['me', 'unassigned', 'assigned'])),
  /** Conditions on the data every document of the list meets, all of them. */
  where: Type.Optional(some(ListCondition)),
  columns: Type.Array(ListColumn),
  /** Screen path (relative, with :id) a row opens. */
  open: Type.String(),
  /** Translation key of the menu entry (within its workflow's menu folder). */
  label: textKey,
  /** Translation key naming the list outside its menu folder (default: `label`). */
  title: Type.Optional(textKey),
  /** Translation key of the list's count (default: the workflow's `count`, else "documents"). */
  count: Type.Optional(countKey),
  /** A name search box (a search's `name`): its matches closest first. */
  nameSearch: Type.Optional(ListNameSearch),
  /** The workflow's flags the finder offers to filter by (a search's `flags`: all of them set). */
  flagFilter: Type.Optional(ListFlagFilter),
  /** The menu entry shows how many documents meet this condition (unread messages). */
  badge: Type.Optional(
    strict({ field: fieldName, criterion: choice(['equals', 'notEquals']), value: scalar }),
  ),
});
export type WorkflowList = Static<typeof WorkflowList>;
