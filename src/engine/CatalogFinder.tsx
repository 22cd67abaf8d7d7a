import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { ServerDataTable } from './ServerDataTable';
import { useTranslation } from 'react-i18next';
import type { ApiClient, ApiResult } from '../core/api/client';
import { catalogFieldKinds, VALIDITY_FIELDS } from '../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../core/definitions/types';
import type { Language, TextTree } from '../core/i18n/translate';
import type { SearchRequest, SearchResult } from '../core/search/protocol';
import { CatalogEntryForm } from './CatalogEntryForm';
import { FilterBar, type FilterField } from './FilterBar';
import { formatCell } from './format';
import { useServerTable } from './useServerTable';

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

  const [creating, setCreating] = useState(false);
  const [saved, setSaved] = useState(false);
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
            {t('catalog.records', { count: table.total })}
          </Text>
          <Button variant="default" onClick={table.reload}>
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
        onApply={(condition) => table.setFilter(condition ? [condition] : [])}
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
      <ServerDataTable<Row> table={table} columns={columns} />
      <CatalogEntryForm
        opened={creating}
        onClose={() => setCreating(false)}
        onSaved={() => {
          setCreating(false);
          setSaved(true);
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
