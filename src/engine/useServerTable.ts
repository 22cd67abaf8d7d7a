import { useEffect, useRef, useState } from 'react';
import type { DataTableSortStatus } from 'mantine-datatable';
import type { ApiResult } from '../core/api/client';
import type { FilterCondition, SearchRequest, SearchResult } from '../core/search/protocol';

export const PAGE_SIZES = [10, 25, 50];

const NO_ROWS: never[] = [];

export type TableRow = { id: string } & Record<string, unknown>;

export interface ServerTable<T extends TableRow> {
  records: T[];
  total: number;
  /** The server stopped counting: more than `total` rows match. */
  totalIsLowerBound: boolean;
  /** Rows the table's pager counts: at least one past this page while another follows. */
  pagedTotal: number;
  /** A search is under way (from the first render on, so nothing says "no results" too early). */
  fetching: boolean;
  /** An answer (rows or an error) has arrived: until then the count and "no results" mean nothing. */
  loaded: boolean;
  error: string | undefined;
  page: number;
  setPage(page: number): void;
  pageSize: number;
  setPageSize(size: number): void;
  sortStatus: DataTableSortStatus<T>;
  setSortStatus(status: DataTableSortStatus<T>): void;
  filter: FilterCondition[];
  setFilter(filter: FilterCondition[]): void;
  reload(): void;
}

/** A search's answer with each of its items made a row. */
export function asRows<I, T>(
  [failure, result]: ApiResult<SearchResult<I>>,
  row: (item: I) => T,
): ApiResult<SearchResult<T>> {
  return failure ? [failure, null] : [null, { ...result, items: result.items.map(row) }];
}

/** A server-paged, sorted, filtered list; stale answers are dropped; pages reached one by one use the cursor. */
export function useServerTable<T extends TableRow>(
  search: (request: SearchRequest) => Promise<ApiResult<SearchResult<T>>>,
  initialSort: DataTableSortStatus<T>,
  refreshKey: unknown,
): ServerTable<T> {
  // The last answer: undefined until one arrives, then its rows or its failure's message.
  const [answer, setAnswer] = useState<{ result: SearchResult<T> | null; error?: string }>();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState(PAGE_SIZES[0] ?? 10);
  const [sortStatus, setSortState] = useState(initialSort);
  const [filter, setFilterState] = useState<FilterCondition[]>([]);
  const [fetching, setFetching] = useState(true);
  const [reloads, setReloads] = useState(0);
  const latest = useRef(0);
  /** The cursor starting each page, for the current filter, sort and page size. */
  const cursors = useRef(new Map<number, string>());

  // A cursor belongs to its query: another filter, sort or size starts over (runs first).
  useEffect(() => cursors.current.clear(), [search, filter, pageSize, sortStatus, refreshKey]);

  useEffect(() => {
    const call = ++latest.current;
    setFetching(true);
    const cursor = cursors.current.get(page);
    void search({
      filter,
      options: {
        page,
        itemsPerPage: pageSize,
        sort: [{ field: String(sortStatus.columnAccessor), direction: sortStatus.direction }],
        ...(cursor ? { cursor } : {}),
      },
    }).then(([failure, result]) => {
      if (call !== latest.current) return;
      setFetching(false);
      // A failure shows its message over an empty table.
      setAnswer({ result, error: failure?.message });
      if (result?.nextCursor) cursors.current.set(page + 1, result.nextCursor);
    });
  }, [search, filter, page, pageSize, sortStatus, reloads, refreshKey]);

  /** Another size, sort or filter starts again from the first page. */
  const fromFirstPage =
    <V>(set: (value: V) => void) =>
    (value: V) => {
      setPage(1);
      set(value);
    };
  const result = answer?.result;
  const total = result?.total ?? 0;
  const totalIsLowerBound = result?.totalIsLowerBound === true;
  return {
    records: result?.items ?? NO_ROWS,
    total,
    totalIsLowerBound,
    // Past the count's limit the pager still offers the next page while there is one.
    pagedTotal:
      totalIsLowerBound && result?.nextCursor ? Math.max(total, page * pageSize + 1) : total,
    fetching,
    loaded: answer !== undefined,
    error: answer?.error,
    page,
    setPage,
    pageSize,
    setPageSize: fromFirstPage(setPageSizeState),
    sortStatus,
    setSortStatus: fromFirstPage(setSortState),
    filter,
    setFilter: fromFirstPage(setFilterState),
    reload: () => setReloads((n) => n + 1),
  };
}
