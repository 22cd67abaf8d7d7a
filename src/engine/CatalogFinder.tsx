import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Group, Radio, Stack, Title, VisuallyHidden } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { openColumn, ServerDataTable, TableCount, WIDE_COLUMNS } from './ServerDataTable';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../core/api/client';
import {
  catalogFieldKinds,
  currencyOf,
  systemFieldsOf,
  VALIDITY_FIELDS,
  type CatalogEntryRecord,
} from '../core/definitions/catalog-entry';
import { catalogCsvColumns, catalogCsvTitle } from '../core/definitions/catalog-csv';
import { translationOf } from '../core/i18n/localized';
import type { CatalogDefinition } from '../core/definitions/types';
import { DEFAULT_LANGUAGE, type Language, type TextTree } from '../core/i18n/translate';
import { ALL_ITEMS, type SearchRequest } from '../core/search/protocol';
import { fieldLabel, shownCatalogFields, shownValue } from './catalog-fields';
import { CatalogDeletedEntries } from './CatalogDeletedEntries';
import { CatalogEntryForm } from './CatalogEntryForm';
import { CatalogEntryView } from './CatalogEntryView';
import { CatalogImportDialog } from './CatalogImportDialog';
import { downloadText, toCsv } from './csv';
import { FilterBar, type FilterField } from './FilterBar';
import { useCellText } from './useCellText';
import { asRows, useServerTable, type TableRow } from './useServerTable';
import { ErrorAlert } from './ErrorAlert';

type Row = TableRow;

/** The dialog open over the finder: an entry viewed, edited or new (no entry), an import, the bin. */
type Dialog =
  | { kind: 'view'; id: string }
  | { kind: 'edit'; entry?: CatalogEntryRecord }
  | { kind: 'import' }
  | { kind: 'restore' };

export interface CatalogFinderProps {
  catalog: CatalogDefinition;
  api: ApiClient;
  language: Language;
  translations: Partial<Record<Language, TextTree>>;
  /** Whether to offer the New button (the server checks the roles again on every call). */
  canManage: boolean;
  validatorUrl: string;
  backend?: string;
  /** Every catalogue, for the names of referenced entries. */
  allCatalogs?: CatalogDefinition[];
}

/**
 * The finder of any catalogue and the search page's actions (specification 001, section 2):
 * Finder (the filter bar), Reload, Open (the selected entry, to edit), Export CSV and New.
 */
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
  const cellText = useCellText(catalog, language);
  const shown = useCallback(
    (row: Record<string, unknown>, name: string) =>
      cellText(name, shownValue(catalog, row, name, language)),
    [catalog, cellText, language],
  );
  const labelOf = (name: string) => fieldLabel(t, catalog, language, name);
  const columnNames = useMemo(() => {
    const shown = new Set(shownCatalogFields(catalog));
    const own = (catalog.columns ?? [...shown]).filter((name) => shown.has(name));
    return [...own, ...VALIDITY_FIELDS];
  }, [catalog]);

  const [dialog, setDialog] = useState<Dialog>();
  const [saved, setSaved] = useState<string>();
  const [exportError, setExportError] = useState<string>();
  const [selected, setSelected] = useState<string>();
  const [finderShown, setFinderShown] = useState(true);
  const [opening, setOpening] = useState(false);
  const search = useCallback(
    async (request: SearchRequest) =>
      asRows(
        await api.search<CatalogEntryRecord>(
          backend,
          `/${encodeURIComponent(catalog.id)}`,
          request,
        ),
        (entry): Row => ({ ...entry.data, id: entry.id }),
      ),
    [api, backend, catalog.id],
  );
  const table = useServerTable<Row>(
    search,
    { columnAccessor: catalog.key[0] ?? columnNames[0] ?? 'startTime', direction: 'asc' },
    language,
  );
  const view = (id: string) => setDialog({ kind: 'view', id });
  const close = () => setDialog(undefined);
  /** A dialog opened afresh: what the last one did is no longer said. */
  const open = (next: Dialog) => {
    setSaved(undefined);
    setDialog(next);
  };
  /** A dialog that changed the entries: closed, what it did said, the table read again. */
  const done = (message: string) => {
    setDialog(undefined);
    setSaved(message);
    table.reload();
  };

  // On a phone the key and the first other column (what the entry is: its name) and View stay.
  const essential = new Set([
    ...catalog.key,
    ...columnNames.filter((name) => !catalog.key.includes(name)).slice(0, 1),
  ]);
  const rowName = (row: Row) => catalog.key.map((k) => shown(row, k)).join(' ');
  // The selected entry, while it is on the page shown: a row gone from it cannot be opened.
  const selectedRow = table.records.find((row) => row.id === selected);
  const selectionGroup = `catalog-selection-${catalog.id}`;
  const columns: DataTableColumn<Row>[] = [
    {
      // One radio group across the rows: Tab reaches it, the arrow keys move it.
      accessor: 'select',
      title: <VisuallyHidden>{t('catalog.select')}</VisuallyHidden>,
      width: 48,
      render: (row: Row) => (
        <Radio
          name={selectionGroup}
          value={row.id}
          checked={selected === row.id}
          onChange={() => setSelected(row.id)}
          onClick={(event) => event.stopPropagation()}
          aria-label={t('catalog.selectEntry', { entry: rowName(row) })}
        />
      ),
    },
    ...columnNames.map((name) => ({
      accessor: name,
      title: labelOf(name),
      sortable: true,
      visibleMediaQuery: essential.has(name) ? undefined : WIDE_COLUMNS,
      // Amounts line up on their right edge, as in every table of amounts.
      ...(currencyOf(catalog, name) !== undefined && { textAlign: 'right' as const }),
      render: (row: Row) => shown(row, name),
    })),
    openColumn<Row>(
      'view',
      t('catalog.view'),
      (row) => view(row.id),
      (row) => `${t('catalog.view')} ${rowName(row)}`,
    ),
  ];

  /** Edit reads the entry afresh so the edit names its latest version; a reader only views. */
  const openSelected = async () => {
    if (!selectedRow) return;
    setSaved(undefined);
    setExportError(undefined);
    if (!canManage) return view(selectedRow.id);
    setOpening(true);
    const [failure, entry] = await api.get<CatalogEntryRecord>(
      backend,
      `/${encodeURIComponent(catalog.id)}/${encodeURIComponent(selectedRow.id)}`,
    );
    setOpening(false);
    if (failure) setExportError(failure.message);
    else setDialog({ kind: 'edit', entry });
  };

  /** Every entry the filter matches (the server caps "all"), as a CSV file. */
  const exportCsv = async () => {
    setExportError(undefined);
    const [failure, result] = await search({
      filter: table.filter,
      options: { page: 1, itemsPerPage: ALL_ITEMS },
    });
    if (failure) return setExportError(failure.message);
    // Whole entries, a column per language of a text, so that Import CSV reads the file back.
    const csv = toCsv(
      catalogCsvColumns(catalog).map((column) => ({
        title: catalogCsvTitle(catalog, column, translations, language),
        value: (row: Record<string, unknown>) =>
          column.language && column.language !== DEFAULT_LANGUAGE
            ? (translationOf(row, column.field, column.language) ?? '')
            : cellText(column.field, row[column.field]),
      })),
      result.items,
    );
    downloadText(`${catalog.id}.csv`, csv);
  };

  // What each dialog below works on.
  const shared = { catalog, api, backend, language };
  const editing = dialog?.kind === 'edit' ? dialog.entry : undefined;
  const filterBarId = `catalog-filter-${catalog.id}`;
  const hidden = new Set(systemFieldsOf(catalog));
  const filterFields: FilterField[] = Object.entries(kinds)
    .filter(([name]) => !hidden.has(name))
    .map(([name, kind]) => ({ name, label: labelOf(name), kind }));

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
          <Button
            variant="default"
            aria-expanded={finderShown}
            aria-controls={filterBarId}
            onClick={() => setFinderShown((shown) => !shown)}
          >
            {t('catalog.finder')}
          </Button>
          <Button variant="default" onClick={table.reload}>
            {t('catalog.reload')}
          </Button>
          <Button
            variant="default"
            onClick={() => void openSelected()}
            disabled={!selectedRow}
            loading={opening}
          >
            {t('catalog.open')}
          </Button>
          <Button variant="default" onClick={() => void exportCsv()} disabled={table.total === 0}>
            {t('catalog.exportCsv')}
          </Button>
          {canManage && (
            <>
              <Button variant="default" onClick={() => open({ kind: 'import' })}>
                {t('catalog.import.button')}
              </Button>
              <Button variant="default" onClick={() => setDialog({ kind: 'restore' })}>
                {t('catalog.deletedEntries.button')}
              </Button>
              <Button onClick={() => open({ kind: 'edit' })}>{t('catalog.new')}</Button>
            </>
          )}
        </Group>
      </Group>
      {/* Hidden, not removed: the Finder shows it again as it was left. */}
      <div id={filterBarId} hidden={!finderShown}>
        <FilterBar
          fields={filterFields}
          onApply={(condition) => table.setFilter(condition ? [condition] : [])}
        />
      </div>
      {saved && (
        <Alert
          color="green"
          role="status"
          withCloseButton
          onClose={() => setSaved(undefined)}
          closeButtonLabel={t('catalog.cancel')}
        >
          {saved}
        </Alert>
      )}
      <ErrorAlert>{exportError}</ErrorAlert>
      <ServerDataTable<Row> table={table} columns={columns} onOpen={view} pinLastColumn />
      <CatalogEntryView
        entryId={dialog?.kind === 'view' ? dialog.id : undefined}
        {...shared}
        canManage={canManage}
        onClose={close}
        onEdit={(entry) => open({ kind: 'edit', entry })}
        onDeleted={() => done(t('catalog.deleted'))}
      />
      <CatalogDeletedEntries
        opened={dialog?.kind === 'restore'}
        {...shared}
        onClose={close}
        onRestored={() => done(t('catalog.deletedEntries.restored'))}
      />
      <CatalogImportDialog
        opened={dialog?.kind === 'import'}
        {...shared}
        translations={translations}
        onClose={close}
        onImported={done}
      />
      <CatalogEntryForm
        key={editing ? `edit-${editing.id}` : 'new'}
        opened={dialog?.kind === 'edit'}
        entry={editing}
        allCatalogs={allCatalogs}
        onClose={close}
        onSaved={() => done(t('catalog.saved'))}
        {...shared}
        translations={translations}
        validatorUrl={validatorUrl}
      />
    </Stack>
  );
}
