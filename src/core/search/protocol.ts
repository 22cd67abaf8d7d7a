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
  /** The previous page's `nextCursor` (keyset paging); with it no rows are skipped by `page`. */
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
  /** True when the server stopped counting: more than `total` items match. */
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

/** The specification's page rules: page 1 by default, all items by default, 10 for a value below 1. */
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
