import type { FilterCriterion } from './criteria';

/** One condition of a search: a field, a criterion and the value(s) it needs. */
export interface FilterCondition {
  field: string;
  criterion: FilterCriterion;
  value?: string | number | boolean | null;
  /** Upper bound of `between`. */
  valueTo?: string | number | boolean | null;
}

export interface SortOrder {
  field: string;
  direction: 'asc' | 'desc';
}

export interface SearchOptions {
  page?: number;
  itemsPerPage?: number;
  sort?: SortOrder[];
  /**
   * Where the page starts: the `nextCursor` of the previous page's answer, for the same filter
   * and sort (keyset paging: a deep page costs what the first one does). With a cursor no rows
   * are skipped by `page`.
   */
  cursor?: string;
}

/** The body of a search: a PATCH to a collection. */
export interface SearchRequest {
  /** A named list of the collection (its fixed status and assignment filters apply). */
  list?: string;
  filter?: FilterCondition[];
  options?: SearchOptions;
}

export interface SearchResult<T> {
  items: T[];
  total: number;
  page: number;
  /** -1 when the caller asked for all items. */
  itemsPerPage: number;
  /** True when "all" was asked for but the server's cap cut the result. */
  capped: boolean;
  /**
   * True when the server stopped counting: more than `total` items match (lists count exactly
   * up to a limit, 10,000 by default, a tenth of it with a condition on a data column). Absent
   * or false: `total` is exact.
   */
  totalIsLowerBound?: boolean;
  /** The `cursor` of the next page, or null on the last page (document searches). */
  nextCursor?: string | null;
}

export const ALL_ITEMS = -1;
export const DEFAULT_PAGE_SIZE = 10;

export interface PageWindow {
  page: number;
  itemsPerPage: number;
  limit: number;
  offset: number;
}

/**
 * The specification's page rules: page defaults to 1; itemsPerPage defaults to -1 (all);
 * any other value of 1 or lower becomes 10. "All" is capped by the server (`maxItems`).
 */
export function normalizePage(options: SearchOptions | undefined, maxItems: number): PageWindow {
  const rawPage = options?.page;
  const page = Number.isInteger(rawPage) && (rawPage as number) >= 1 ? (rawPage as number) : 1;
  const rawSize = options?.itemsPerPage;
  let itemsPerPage: number;
  if (rawSize === undefined || rawSize === ALL_ITEMS) itemsPerPage = ALL_ITEMS;
  else if (!Number.isInteger(rawSize) || rawSize <= 1) itemsPerPage = DEFAULT_PAGE_SIZE;
  else itemsPerPage = Math.min(rawSize, maxItems);
  const limit = itemsPerPage === ALL_ITEMS ? maxItems : itemsPerPage;
  const offset = itemsPerPage === ALL_ITEMS ? 0 : (page - 1) * itemsPerPage;
  return { page: itemsPerPage === ALL_ITEMS ? 1 : page, itemsPerPage, limit, offset };
}
