import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../core/api/client';
import { catalogFieldKinds, VALIDITY_FIELDS } from '../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../core/definitions/types';
import type { Language, TextTree } from '../core/i18n/translate';
import type { FilterCondition, SearchRequest } from '../core/search/protocol';
import { CatalogEntryForm } from './CatalogEntryForm';
import { FilterBar, type FilterField } from './FilterBar';
import { formatCell } from './format';

/** An entry as the catalogue API returns it. */
export interface CatalogEntryRecord {
  id: string;
  version: number;
  data: Record<string, unknown>;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
}

/** A row of the table: the entry's id next to its data fields. */
type Row = { id: string } & Record<string, unknown>;

export interface CatalogFinderProps {
  catalog: CatalogDefinition;
  api: ApiClient;
  language: Language;
  translations: Partial<Record<Language, TextTree>>;
  /** Whether to offer the New button (the server checks the roles again on every call). */
  canManage: boolean;
  /** Address of the catalogue's standalone validator module. */
  validatorUrl: string;
  /** Named backend of the API client that serves catalogues. */
  backend?: string;
}

export const PAGE_SIZES = [10, 25, 50];

/** The finder of any catalogue: a server-paged, sortable, filterable list plus a New form. */
export function CatalogFinder({
  catalog,
  api,
  language,
  translations,
  canManage,
  validatorUrl,
  backend = 'catalog',
}: CatalogFinderProps) {
  const { t } = useTranslation();
  const labels = catalog.labels[language] ?? catalog.labels.en;
  const kinds = useMemo(() => catalogFieldKinds(catalog), [catalog]);
  const fieldLabel = useCallback(
    (name: string): string =>
      name === 'startTime' || name === 'endTime'
        ? t(`catalog.${name}`)
        : (labels?.fields[name] ?? name),
    [labels, t],
  );
  const columnNames = useMemo(() => {
    const own = catalog.columns ?? Object.keys(catalog.schema.properties ?? {});
    return [...own, ...VALIDITY_FIELDS];
  }, [catalog]);

  const [records, setRecords] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0] ?? 10);
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<Row>>({
    columnAccessor: catalog.key[0] ?? columnNames[0] ?? 'startTime',
    direction: 'asc',
  });
  const [filter, setFilter] = useState<FilterCondition[]>([]);
  const [fetching, setFetching] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [reloads, setReloads] = useState(0);
  const [creating, setCreating] = useState(false);
  const [saved, setSaved] = useState(false);
  const latest = useRef(0);

  useEffect(() => {
    const call = ++latest.current;
    const request: SearchRequest = {
      filter,
      options: {
        page,
        itemsPerPage: pageSize,
        sort: [{ field: String(sortStatus.columnAccessor), direction: sortStatus.direction }],
      },
    };
    setFetching(true);
    void api
      .search<CatalogEntryRecord>(backend, `/${encodeURIComponent(catalog.id)}`, request)
      .then(([failure, result]) => {
        if (call !== latest.current) return;
        setFetching(false);
        if (failure) {
          setError(failure.message);
          setRecords([]);
          setTotal(0);
          return;
        }
        setError(undefined);
        setRecords(result.items.map((entry) => ({ ...entry.data, id: entry.id })));
        setTotal(result.total);
      });
  }, [api, backend, catalog.id, filter, page, pageSize, sortStatus, reloads, language]);

  const columns: DataTableColumn<Row>[] = columnNames.map((name) => ({
    accessor: name,
    title: fieldLabel(name),
    sortable: true,
    render: (row: Row) => formatCell(row[name], kinds[name]),
  }));

  const filterFields: FilterField[] = Object.entries(kinds).map(([name, kind]) => ({
    name,
    label: fieldLabel(name),
    kind,
  }));

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={2}>{labels?.title ?? catalog.id}</Title>
        <Group gap="sm">
          <Text c="dimmed" aria-live="polite">
            {t('catalog.records', { count: total })}
          </Text>
          <Button variant="default" onClick={() => setReloads((n) => n + 1)}>
            {t('catalog.reload')}
          </Button>
          {canManage && (
            <Button
              onClick={() => {
                setSaved(false);
                setCreating(true);
              }}
            >
              {t('catalog.new')}
            </Button>
          )}
        </Group>
      </Group>
      <FilterBar
        fields={filterFields}
        onApply={(condition) => {
          setPage(1);
          setFilter(condition ? [condition] : []);
        }}
      />
      {saved && (
        <Alert
          color="green"
          role="status"
          withCloseButton
          onClose={() => setSaved(false)}
          closeButtonLabel={t('catalog.cancel')}
        >
          {t('catalog.saved')}
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <DataTable<Row>
        withTableBorder
        striped
        highlightOnHover
        minHeight={160}
        idAccessor="id"
        records={records}
        columns={columns}
        fetching={fetching}
        totalRecords={total}
        page={page}
        onPageChange={setPage}
        recordsPerPage={pageSize}
        recordsPerPageOptions={PAGE_SIZES}
        recordsPerPageLabel={t('catalog.recordsPerPage')}
        onRecordsPerPageChange={(size) => {
          setPage(1);
          setPageSize(size);
        }}
        sortStatus={sortStatus}
        onSortStatusChange={(status) => {
          setPage(1);
          setSortStatus(status);
        }}
        noRecordsText={t('messages.noResults')}
        loadingText={t('messages.processing')}
      />
      <CatalogEntryForm
        opened={creating}
        onClose={() => setCreating(false)}
        onSaved={() => {
          setCreating(false);
          setSaved(true);
          setReloads((n) => n + 1);
        }}
        catalog={catalog}
        api={api}
        backend={backend}
        language={language}
        translations={translations}
        validatorUrl={validatorUrl}
      />
    </Stack>
  );
}
