import type { RoutedDocument } from '../../core/documents/document-route';
import { useCallback, useMemo, useState } from 'react';
import { Badge, Button, Group, MultiSelect, Stack, Text, Title } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { openColumn, ServerDataTable, TableCount, WIDE_COLUMNS } from '../ServerDataTable';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../core/api/client';
import type { DocumentSummary } from '../../core/documents/types';
import type { WorkflowDefinition, WorkflowList } from '../../core/documents/workflow';
import type { FieldKind } from '../../core/search/criteria';
import type { SearchRequest } from '../../core/search/protocol';
import { downloadText, toCsv } from '../csv';
import { FilterBar, type FilterField } from '../FilterBar';
import { formatDateTime } from '../format';
import { formatMoney } from '../../core/format';
import { pickLanguage } from '../../core/i18n/translate';
import { asRows, useServerTable, type TableRow } from '../useServerTable';
import { backendOf } from '../../core/documents/conventions';
import { FLAGS_COLUMN, flagTextKey } from '../../core/documents/case-work';
import { NameSearchBox } from './NameSearchBox';

/** Columns every document has; others are data fields named by the list. */
const DOCUMENT_COLUMNS: Record<string, FieldKind> = {
  number: 'text',
  status: 'text',
  ownerName: 'text',
  assignee: 'text',
  submittedAt: 'datetime',
  createdAt: 'datetime',
  updatedAt: 'datetime',
  /** Screening found a hit (docs/workflows.md, "Screening"): shown as a badge. */
  screeningHit: 'boolean',
};

type Row = TableRow & { summary: DocumentSummary };

export interface DocumentFinderProps {
  workflow: WorkflowDefinition;
  list: WorkflowList;
  api: ApiClient;
  /** Where a row leads (the list's `open` screen with the id filled in). */
  onOpen: (document: RoutedDocument) => void;
  /** Offered when the user may create a document here. */
  onNew?: () => void;
}

/** Any list of a workflow, as its definition says; paged and sorted by the server. */
export function DocumentFinder({ workflow, list, api, onOpen, onNew }: DocumentFinderProps) {
  const { t, i18n } = useTranslation();
  const kinds = useMemo(
    () =>
      Object.fromEntries(
        list.columns.map((c) => [c.field, DOCUMENT_COLUMNS[c.field] ?? 'text']),
      ) as Record<string, FieldKind>,
    [list.columns],
  );
  const backend = backendOf(workflow);
  // The flags a row must carry, all of them (the list's `flagFilter`; officers only).
  const [flags, setFlags] = useState<string[]>([]);
  // The name searched (the list's `nameSearch`): its matches, the closest first.
  const [name, setName] = useState('');
  const search = useCallback(
    async (request: SearchRequest) =>
      asRows(
        await api.search<DocumentSummary>(backend, `/${workflow.id}`, {
          ...request,
          list: list.id,
          ...(flags.length ? { flags } : {}),
          ...(name ? { name } : {}),
        } as SearchRequest),
        (summary): Row => ({ ...summary.fields, ...summary, summary }),
      ),
    [api, backend, workflow.id, list.id, flags, name],
  );
  const flagName = (flag: string) => t(flagTextKey(workflow.id, flag), { defaultValue: flag });
  /** The flags column: the row's flags as badges, not a field to sort or filter on. */
  const isFlags = (column: WorkflowList['columns'][number]) =>
    column.field === FLAGS_COLUMN && !column.pointer;
  const table = useServerTable<Row>(
    search,
    { columnAccessor: 'updatedAt', direction: 'desc' },
    i18n.language,
  );

  /** Where each data column's value names are: `<entity>.<path>.enum.<value>`, as in forms. */
  const enumKeys = useMemo(
    () =>
      new Map(
        list.columns
          .filter((c) => c.pointer)
          .map((c) => [
            c.field,
            `${workflow.document}.${(c.pointer ?? '').split('/').slice(1).join('.')}.enum`,
          ]),
      ),
    [list.columns, workflow.document],
  );
  /** The columns holding amounts (`format: money`). */
  const money = useMemo(
    () => new Set(list.columns.filter((c) => c.format === 'money').map((c) => c.field)),
    [list.columns],
  );
  /** A cell as people read it: words for codes, dates and amounts as the language writes them. */
  const show = (row: Row, field: string): string => {
    const value = row[field];
    if (value === null || value === undefined) return '';
    if (field === FLAGS_COLUMN && Array.isArray(value))
      return value.map((flag) => flagName(String(flag))).join(', ');
    if (field === 'status') return t(`statuses.${String(value)}`, { defaultValue: String(value) });
    if (kinds[field] === 'datetime') return formatDateTime(value);
    if (money.has(field) && (typeof value === 'string' || typeof value === 'number'))
      return formatMoney(value, pickLanguage(i18n.language));
    if (typeof value === 'boolean') return t(value ? 'catalog.yes' : 'catalog.no');
    const enumKey = enumKeys.get(field);
    if (enumKey && i18n.exists(`${enumKey}.${String(value)}`))
      return t(`${enumKey}.${String(value)}`);
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
  // On a phone the first column (what the row is), the status and Open stay; the rest hide.
  const essential = new Set([list.columns[0]?.field, 'status']);
  const columns: DataTableColumn<Row>[] = [
    ...list.columns.map((column) => ({
      accessor: column.field,
      title: t(column.label),
      // A name search orders by closeness: no column sorts it.
      sortable: !isFlags(column) && !name,
      visibleMediaQuery: essential.has(column.field) ? undefined : WIDE_COLUMNS,
      render: (row: Row) =>
        isFlags(column) ? (
          <Group gap={4}>
            {(row.summary.flags ?? []).map((flag) => (
              <Badge key={flag} size="sm" color="orange" variant="light" tt="none" data-flag={flag}>
                {flagName(flag)}
              </Badge>
            ))}
          </Group>
        ) : column.field === 'screeningHit' && !column.pointer ? (
          row.summary.screeningHit && (
            <Badge color="red" variant="light" tt="none" data-testid="screening-hit">
              {t(column.label)}
            </Badge>
          )
        ) : (
          show(row, column.field)
        ),
    })),
    openColumn<Row>(
      'open',
      t('documents.open'),
      (row) => onOpen({ id: row.id, key: row.summary.key }),
      (row) => `${t('documents.open')} ${row.summary.number ?? ''}`,
    ),
  ];
  const filterFields: FilterField[] = list.columns
    .filter((c) => !isFlags(c))
    .map((c) => ({
      name: c.field,
      label: t(c.label),
      kind: kinds[c.field] ?? 'text',
    }));

  const exportCsv = () => {
    const csv = toCsv(
      list.columns.map((c) => ({ title: t(c.label), value: (row) => show(row as Row, c.field) })),
      table.records,
    );
    downloadText(`${workflow.id}-${list.id}.csv`, csv);
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={2}>{t(list.title ?? list.label)}</Title>
        <Group gap="sm">
          <TableCount
            table={table}
            // What the list's documents are called ("2 accounts"), declared by the workflow.
            countKey={list.count ?? workflow.count ?? 'documents.results'}
            loadingKey="documents.loadingResults"
          />
          <Button variant="default" onClick={table.reload}>
            {t('documents.reload')}
          </Button>
          <Button variant="default" onClick={exportCsv} disabled={table.records.length === 0}>
            {t('documents.exportCsv')}
          </Button>
          {onNew && <Button onClick={onNew}>{t('documents.new')}</Button>}
        </Group>
      </Group>
      {list.nameSearch && (
        <NameSearchBox
          label={t(list.nameSearch.label ?? 'documents.nameSearch.label')}
          applied={name}
          onSearch={(searched) => {
            table.setPage(1);
            setName(searched);
          }}
        />
      )}
      {name && (
        <Text size="sm" c="dimmed" data-name-order>
          {t('documents.nameSearch.closestFirst', { name })}
        </Text>
      )}
      <FilterBar
        fields={filterFields}
        onApply={(condition) => table.setFilter(condition ? [condition] : [])}
      />
      {list.flagFilter && (
        <MultiSelect
          label={t('case-work.filterByFlags')}
          placeholder={flags.length ? undefined : t('case-work.filterByFlagsPlaceholder')}
          data={list.flagFilter.map((flag) => ({ value: flag, label: flagName(flag) }))}
          value={flags}
          onChange={setFlags}
          clearable
          maw={420}
          data-flag-filter
        />
      )}
      <ServerDataTable<Row>
        table={table}
        columns={columns}
        onOpen={(id) =>
          onOpen({ id, key: table.records.find((row) => row.id === id)?.summary.key })
        }
        pinLastColumn
        ranked={Boolean(name)}
      />
    </Stack>
  );
}
