import { Alert } from '@mantine/core';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
// Loaded with the finders' chunk, not by the home page.
import 'mantine-datatable/styles.css';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES, type ServerTable, type TableRow } from './useServerTable';

/**
 * The table of every finder: a server-paged, server-sorted list with its error and empty
 * messages. Finders give the columns and what a row click opens.
 */
export function ServerDataTable<T extends TableRow>({
  table,
  columns,
  onOpen,
}: {
  table: ServerTable<T>;
  columns: DataTableColumn<T>[];
  onOpen?: (id: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {table.error && (
        <Alert color="red" role="alert">
          {table.error}
        </Alert>
      )}
      <DataTable<T>
        withTableBorder
        striped
        highlightOnHover
        minHeight={160}
        idAccessor="id"
        records={table.records}
        columns={columns}
        fetching={table.fetching}
        totalRecords={table.total}
        page={table.page}
        onPageChange={table.setPage}
        recordsPerPage={table.pageSize}
        recordsPerPageOptions={PAGE_SIZES}
        recordsPerPageLabel={t('catalog.recordsPerPage')}
        onRecordsPerPageChange={table.setPageSize}
        sortStatus={table.sortStatus}
        onSortStatusChange={table.setSortStatus}
        onRowClick={onOpen ? ({ record }) => onOpen(record.id) : undefined}
        noRecordsText={t('messages.noResults')}
        loadingText={t('messages.processing')}
      />
    </>
  );
}
