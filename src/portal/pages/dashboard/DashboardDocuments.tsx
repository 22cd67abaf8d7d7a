import { useCallback } from 'react';
import type { DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ApiResult } from '../../../core/api/client';
import type { LibraryRow, TaskRow } from '../../../core/dashboard/types';
import type { SearchRequest, SearchResult } from '../../../core/search/protocol';
import { formatDateTime } from '../../../core/format';
import { ServerDataTable } from '../../../engine/ServerDataTable';
import { useServerTable } from '../../../engine/useServerTable';
import { usePortal } from '../../context';
import { documentPath } from '../../documentLinks';

type Row = (LibraryRow | TaskRow) & { [key: string]: unknown };

/**
 * The documents of a dashboard page (My Library, My Tasks): one server-paged list across every
 * document type, each row opening the document's screen.
 */
export function DashboardDocuments({
  endpoint,
  withReason = false,
}: {
  endpoint: '/dashboard/library' | '/dashboard/tasks';
  withReason?: boolean;
}) {
  const { t } = useTranslation();
  const { api, bundle, session } = usePortal();
  const navigate = useNavigate();
  const search = useCallback(
    (request: SearchRequest): Promise<ApiResult<SearchResult<Row>>> =>
      api.search<Row>('evisa', endpoint, request),
    [api, endpoint],
  );
  const table = useServerTable<Row>(search, { columnAccessor: 'updatedAt', direction: 'desc' }, 0);
  const columns: DataTableColumn<Row>[] = [
    {
      accessor: 'documentType',
      title: t('pages.library.type'),
      render: (row) => t(`${row.documentType}._title`, { defaultValue: row.documentType }),
    },
    { accessor: 'number', title: t('pages.library.number'), sortable: true },
    {
      accessor: 'status',
      title: t('pages.library.status'),
      sortable: true,
      render: (row) => t(`statuses.${row.status}`, { defaultValue: row.status }),
    },
    ...(withReason
      ? [
          {
            accessor: 'reason',
            title: t('pages.tasks.reason'),
            render: (row: Row) => t(`pages.tasks.reasons.${String(row.reason)}`),
          },
        ]
      : []),
    {
      accessor: 'updatedAt',
      title: t('pages.library.updatedAt'),
      sortable: true,
      render: (row) => formatDateTime(row.updatedAt),
    },
  ];
  const rowOf = (id: string) => table.records.find((row) => row.id === id);
  return (
    <ServerDataTable<Row>
      table={table}
      columns={columns}
      onOpen={(id) => {
        const row = rowOf(id);
        const list = row && typeof row.list === 'string' ? row.list : undefined;
        const path = row && documentPath(bundle, session, row.workflow, row.id, list);
        if (path) navigate(path);
      }}
    />
  );
}
