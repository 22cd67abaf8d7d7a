import { Button, Text } from '@mantine/core';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
// Loaded with the finders' chunk, not by the home page.
import 'mantine-datatable/styles.css';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES, type ServerTable, type TableRow } from './useServerTable';
import { ErrorAlert } from './ErrorAlert';

/** Below this width (phones) only the columns saying what a row is stay. */
export const WIDE_COLUMNS = '(min-width: 48em)';

/** A finder's last column: a button per row (row clicks serve the mouse, it the keyboard). */
export function openColumn<T extends TableRow>(
  accessor: string,
  title: string,
  onOpen: (row: T) => void,
  ariaLabel: (row: T) => string,
): DataTableColumn<T> {
  return {
    accessor,
    title,
    render: (row) => (
      <Button
        size="compact-xs"
        variant="subtle"
        onClick={(event) => {
          event.stopPropagation();
          onOpen(row);
        }}
        aria-label={ariaLabel(row).trim()}
      >
        {title}
      </Button>
    ),
  };
}

/** A sort column no table has, shown while the server ranks the rows itself. */
const RANKED = '\u0000ranked';

/** The table of every finder: server-paged and sorted, with its error, loading and empty texts. */
export function ServerDataTable<T extends TableRow>({
  table,
  columns,
  onOpen,
  pinLastColumn = false,
  ranked = false,
}: {
  table: ServerTable<T>;
  columns: DataTableColumn<T>[];
  onOpen?: (id: string) => void;
  pinLastColumn?: boolean;
  /** The server orders the rows itself (a name search, closest first): no column shows a sort. */
  ranked?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <ErrorAlert>{table.error}</ErrorAlert>
      <DataTable<T>
        withTableBorder
        striped
        highlightOnHover
        minHeight={160}
        idAccessor="id"
        records={table.records}
        columns={columns}
        fetching={table.fetching}
        totalRecords={table.pagedTotal}
        page={table.page}
        onPageChange={table.setPage}
        recordsPerPage={table.pageSize}
        recordsPerPageOptions={PAGE_SIZES}
        recordsPerPageLabel={t('catalog.recordsPerPage')}
        // The library's own text, but "more than 10,000" once the server stopped counting.
        paginationText={({ from, to }) =>
          `${from} - ${to} / ${
            table.totalIsLowerBound ? t('messages.moreThan', { count: table.total }) : table.total
          }`
        }
        onRecordsPerPageChange={table.setPageSize}
        // Ranked, the sort names no column: no header shows an arrow for an order not applied.
        sortStatus={ranked ? { ...table.sortStatus, columnAccessor: RANKED } : table.sortStatus}
        onSortStatusChange={table.setSortStatus}
        onRowClick={onOpen ? ({ record }) => onOpen(record.id) : undefined}
        pinLastColumn={pinLastColumn}
        // "No results" only once a search has answered with nothing, never while the first runs.
        noRecordsText={table.loaded ? t('messages.noResults') : t('messages.loading')}
        loadingText={t('messages.loading')}
      />
    </>
  );
}

/** The count above a finder, "More than 10,000" once the server stopped counting. */
export function TableCount({
  table,
  countKey,
  loadingKey,
}: {
  table: Pick<ServerTable<TableRow>, 'loaded' | 'total' | 'totalIsLowerBound'>;
  countKey: string;
  loadingKey: string;
}) {
  const { t } = useTranslation();
  const count = table.totalIsLowerBound
    ? t(`${countKey}More`, { count: table.total })
    : t(countKey, { count: table.total });
  return (
    <Text c="dimmed" aria-live="polite" data-testid="table-count">
      {table.loaded ? count : t(loadingKey)}
    </Text>
  );
}
