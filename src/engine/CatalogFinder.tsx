import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { ServerDataTable, TableCount, WIDE_COLUMNS } from './ServerDataTable';
import { useTranslation } from 'react-i18next';
import type { ApiClient, ApiResult } from '../core/api/client';
import {
  catalogFieldKinds,
  VALIDITY_FIELDS,
  type CatalogEntryRecord,
} from '../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../core/definitions/types';
import type { Language, TextTree } from '../core/i18n/translate';
import {
  ALL_ITEMS,
  type FilterCondition,
  type SearchRequest,
  type SearchResult,
} from '../core/search/protocol';
import { CatalogEntryForm } from './CatalogEntryForm';
import { CatalogEntryView } from './CatalogEntryView';
import { downloadText, toCsv } from './csv';
import { FilterBar, type FilterField } from './FilterBar';
import { useCellText } from './useCellText';
import { useServerTable } from './useServerTable';

export type { CatalogEntryRecord };

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
  /** Every catalogue, for the names of referenced entries. */
  allCatalogs?: CatalogDefinition[];
}

/** The finder of any catalogue: a server-paged, sortable, filterable list plus a New form. */
export function CatalogFinder({
  catalog,
  api,
  language,
  translations,
  canManage,
  validatorUrl,
  backend = 'catalog',
  allCatalogs,
}: CatalogFinderProps) {
  const { t } = useTranslation();
  const labels = catalog.labels[language] ?? catalog.labels.en;
  const kinds = useMemo(() => catalogFieldKinds(catalog), [catalog]);
  const cellText = useCellText(catalog);
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

  const [creating, setCreating] = useState(false);
  const [viewing, setViewing] = useState<string>();
  const [editing, setEditing] = useState<CatalogEntryRecord>();
  const [saved, setSaved] = useState<'catalog.saved' | 'catalog.deleted'>();
  const [filter, setFilter] = useState<FilterCondition[]>([]);
  const [exportError, setExportError] = useState<string>();
  const search = useCallback(
    async (request: SearchRequest): Promise<ApiResult<SearchResult<Row>>> => {
      const [failure, result] = await api.search<CatalogEntryRecord>(
        backend,
        `/${encodeURIComponent(catalog.id)}`,
        request,
      );
      if (failure) return [failure, null];
      return [
        null,
        { ...result, items: result.items.map((entry) => ({ ...entry.data, id: entry.id })) },
      ];
    },
    [api, backend, catalog.id],
  );
  const table = useServerTable<Row>(
    search,
    { columnAccessor: catalog.key[0] ?? columnNames[0] ?? 'startTime', direction: 'asc' },
    language,
  );

  // On a phone the key and the first other column (what the entry is: its name) and View stay.
  const essential = new Set([
    ...catalog.key,
    ...columnNames.filter((name) => !catalog.key.includes(name)).slice(0, 1),
  ]);
  const columns: DataTableColumn<Row>[] = [
    ...columnNames.map((name) => ({
      accessor: name,
      title: fieldLabel(name),
      sortable: true,
      visibleMediaQuery: essential.has(name) ? undefined : WIDE_COLUMNS,
      render: (row: Row) => cellText(name, row[name]),
    })),
    {
      // Row clicks serve the mouse; this button serves the keyboard and screen readers.
      accessor: 'view',
      title: t('catalog.view'),
      render: (row: Row) => (
        <Button
          size="compact-xs"
          variant="subtle"
          onClick={(event) => {
            event.stopPropagation();
            setViewing(row.id);
          }}
          aria-label={`${t('catalog.view')} ${catalog.key.map((k) => cellText(k, row[k])).join(' ')}`.trim()}
        >
          {t('catalog.view')}
        </Button>
      ),
    },
  ];

  /** Every entry the filter matches (the server caps "all"), as a CSV file. */
  const exportCsv = async () => {
    setExportError(undefined);
    const [failure, result] = await search({
      filter,
      options: { page: 1, itemsPerPage: ALL_ITEMS },
    });
    if (failure) {
      setExportError(failure.message);
      return;
    }
    const csv = toCsv(
      columnNames.map((name) => ({
        title: fieldLabel(name),
        value: (row: Record<string, unknown>) => cellText(name, row[name]),
      })),
      result.items,
    );
    downloadText(`${catalog.id}.csv`, csv);
  };

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
          <TableCount
            table={table}
            countKey="catalog.records"
            loadingKey="catalog.loadingRecords"
          />
          <Button variant="default" onClick={table.reload}>
            {t('catalog.reload')}
          </Button>
          <Button variant="default" onClick={() => void exportCsv()} disabled={table.total === 0}>
            {t('catalog.exportCsv')}
          </Button>
          {canManage && (
            <Button
              onClick={() => {
                setSaved(undefined);
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
          const next = condition ? [condition] : [];
          setFilter(next);
          table.setFilter(next);
        }}
      />
      {saved && (
        <Alert
          color="green"
          role="status"
          withCloseButton
          onClose={() => setSaved(undefined)}
          closeButtonLabel={t('catalog.cancel')}
        >
          {t(saved)}
        </Alert>
      )}
      {exportError && (
        <Alert color="red" role="alert">
          {exportError}
        </Alert>
      )}
      <ServerDataTable<Row> table={table} columns={columns} onOpen={setViewing} pinLastColumn />
      <CatalogEntryView
        entryId={viewing}
        catalog={catalog}
        api={api}
        backend={backend}
        language={language}
        canManage={canManage}
        onClose={() => setViewing(undefined)}
        onEdit={(entry) => {
          setViewing(undefined);
          setSaved(undefined);
          setEditing(entry);
        }}
        onDeleted={() => {
          setViewing(undefined);
          setSaved('catalog.deleted');
          table.reload();
        }}
      />
      <CatalogEntryForm
        key={editing ? `edit-${editing.id}` : 'new'}
        opened={creating || editing !== undefined}
        entry={editing}
        allCatalogs={allCatalogs}
        onClose={() => {
          setCreating(false);
          setEditing(undefined);
        }}
        onSaved={() => {
          setCreating(false);
          setEditing(undefined);
          setSaved('catalog.saved');
          table.reload();
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
