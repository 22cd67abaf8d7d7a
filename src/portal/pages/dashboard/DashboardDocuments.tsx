import { useCallback } from 'react';
import { Anchor, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { ApiResult } from '../../../core/api/client';
import type { DefinitionBundle } from '../../../core/definitions/types';
import type { LibraryRow, TaskRow } from '../../../core/dashboard/types';
import { fullRoles } from '../../../core/documents/workflow';
import type { SearchRequest, SearchResult } from '../../../core/search/protocol';
import { formatDateTime } from '../../../core/format';
import { ServerDataTable, TableCount, WIDE_COLUMNS } from '../../../engine/ServerDataTable';
import { useServerTable } from '../../../engine/useServerTable';
import { usePortal } from '../../context';
import { documentPath } from '../../documentLinks';
import type { Session } from '../../session';
import { DEFAULT_BACKEND } from '../../../core/documents/conventions';

type Row = (LibraryRow | TaskRow) & { [key: string]: unknown };

/**
 * The screen a dashboard row opens: an owner's task the workflow's `tasks.owner` screen for the
 * status, when the user may open it; else `documentPath`'s choice.
 */
export function rowPath(
  bundle: Pick<DefinitionBundle, 'workflows'>,
  session: Session,
  row: Row,
): string | undefined {
  if (row.reason === 'owner') {
    const workflow = bundle.workflows.find((w) => w.id === row.workflow);
    const task = workflow?.tasks?.owner?.find((t) => t.status === row.status);
    const screen = task && workflow?.screens.find((s) => s.path === task.open);
    if (workflow && screen && session.hasAnyRole(fullRoles(workflow, screen.roles)))
      return `${workflow.prefix}${screen.path.replace(':id', encodeURIComponent(row.id))}`;
  }
  const list = typeof row.list === 'string' ? row.list : undefined;
  return documentPath(bundle, session, row.workflow, row.id, list);
}

/**
 * The documents of a dashboard page, one server-paged list; "Open" is a real link, and a click
 * on the row does the same for the mouse.
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
      api.search<Row>(DEFAULT_BACKEND, endpoint, request),
    [api, endpoint],
  );
  const table = useServerTable<Row>(search, { columnAccessor: 'updatedAt', direction: 'desc' }, 0);
  const typeName = (row: Row) =>
    t(`${row.documentType}._title`, { defaultValue: row.documentType });
  const columns: DataTableColumn<Row>[] = [
    {
      accessor: 'number',
      title: t('pages.library.number'),
      sortable: true,
      // A document delegated to the reader says whose it is (docs/delegation.md).
      render: (row) => (
        <>
          {row.number ?? ''}
          {row.delegated === true && typeof row.holderName === 'string' && (
            <Text size="xs" c="dimmed" data-delegated-for={row.holderName}>
              {t('delegates.forHolder', { holder: row.holderName })}
            </Text>
          )}
        </>
      ),
    },
    {
      accessor: 'documentType',
      title: t('pages.library.type'),
      visibleMediaQuery: WIDE_COLUMNS,
      render: typeName,
    },
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
            visibleMediaQuery: WIDE_COLUMNS,
            render: (row: Row) => t(`pages.tasks.reasons.${String(row.reason)}`),
          },
        ]
      : []),
    {
      accessor: 'updatedAt',
      title: t('pages.library.updatedAt'),
      sortable: true,
      visibleMediaQuery: WIDE_COLUMNS,
      render: (row) => formatDateTime(row.updatedAt),
    },
    {
      accessor: 'open',
      title: t('pages.library.open'),
      render: (row) => {
        const path = rowPath(bundle, session, row);
        if (!path) return null;
        return (
          <Anchor
            component={Link}
            to={path}
            onClick={(event) => event.stopPropagation()}
            aria-label={t('pages.library.openDocument', { number: row.number ?? typeName(row) })}
          >
            {t('pages.library.open')}
          </Anchor>
        );
      },
    },
  ];
  return (
    <>
      <TableCount
        table={table}
        countKey="documents.results"
        loadingKey="documents.loadingResults"
      />
      <ServerDataTable<Row>
        table={table}
        columns={columns}
        pinLastColumn
        onOpen={(id) => {
          const row = table.records.find((r) => r.id === id);
          const path = row && rowPath(bundle, session, row);
          if (path) navigate(path);
        }}
      />
    </>
  );
}
