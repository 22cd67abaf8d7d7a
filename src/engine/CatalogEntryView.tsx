import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../core/api/client';
import {
  SEED_ACTOR,
  translatableFieldsOf,
  VALIDITY_FIELDS,
  type CatalogEntryRecord,
} from '../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../core/definitions/types';
import { translationOf } from '../core/i18n/localized';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../core/i18n/translate';
import { fieldLabel, languageLabel, shownCatalogFields, validityStatus } from './catalog-fields';
import { formatDateTime } from './format';
import { useAnswer } from './useAnswer';
import { useCellText } from './useCellText';
import { ErrorAlert } from './ErrorAlert';

export interface CatalogEntryViewProps {
  /** The entry to show; the dialog is closed when undefined. */
  entryId: string | undefined;
  catalog: CatalogDefinition;
  api: ApiClient;
  backend: string;
  language: Language;
  canManage: boolean;
  onClose: () => void;
  onEdit: (entry: CatalogEntryRecord) => void;
  onDeleted: () => void;
}

/** The View Entry dialog, with Edit and Delete for managers. */
export function CatalogEntryView(props: CatalogEntryViewProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.entryId !== undefined}
      onClose={props.onClose}
      title={t('catalog.viewEntry')}
      closeButtonProps={{ 'aria-label': t('catalog.close') }}
      size="lg"
    >
      {props.entryId !== undefined && <EntryDetails {...props} entryId={props.entryId} />}
    </Modal>
  );
}

function EntryDetails({
  entryId,
  catalog,
  api,
  backend,
  language,
  canManage,
  onClose,
  onEdit,
  onDeleted,
}: CatalogEntryViewProps & { entryId: string }) {
  const { t } = useTranslation();
  const cellText = useCellText(catalog, language);
  const [refused, setRefused] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const path = `/${encodeURIComponent(catalog.id)}/${encodeURIComponent(entryId)}`;
  const [loadError, entry] =
    useAnswer(() => api.get<CatalogEntryRecord>(backend, path), [api, backend, path]) ?? [];
  const failure = refused ?? loadError?.message;

  if (failure) return <ErrorAlert>{failure}</ErrorAlert>;
  if (!entry) return <Loader role="status" aria-label={t('messages.loading')} />;

  const own = shownCatalogFields(catalog);
  const translatable = new Set(translatableFieldsOf(catalog));
  const labelOf = (name: string) => fieldLabel(t, catalog, language, name);
  /** A field's rows: one, or one per language for a translatable text (each as written). */
  const fieldRows = (name: string): Array<{ key: string; label: string; value: ReactNode }> =>
    translatable.has(name)
      ? LANGUAGES.map((code) => {
          const text =
            code === DEFAULT_LANGUAGE ? entry.data[name] : translationOf(entry.data, name, code);
          return {
            key: `${name}-${code}`,
            label: languageLabel(t, labelOf(name), code),
            value:
              typeof text === 'string' && text !== '' ? (
                <span lang={code}>{text}</span>
              ) : (
                t('catalog.translated.none')
              ),
          };
        })
      : [{ key: name, label: labelOf(name), value: cellText(name, entry.data[name]) }];
  const rows = (names: readonly string[]) => (
    <Table withTableBorder>
      <Table.Tbody>
        {names.flatMap(fieldRows).map(({ key, label, value }) => (
          <Table.Tr key={key}>
            <Table.Th scope="row" w="40%">
              {label}
            </Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );

  const remove = async () => {
    setBusy(true);
    const [error] = await api.delete<unknown>(backend, `${path}?version=${entry.version}`);
    setBusy(false);
    if (error) {
      setConfirming(false);
      setRefused(error.message);
      return;
    }
    onDeleted();
  };

  return (
    <Stack gap="md">
      <Title order={4}>{t('catalog.entryData')}</Title>
      {rows(own)}
      <Title order={4}>{t('catalog.entryKeys')}</Title>
      {rows(VALIDITY_FIELDS)}
      {/* The entry's information: its status now, then who created and last changed it, when. */}
      <Text size="sm" data-testid="entry-status">
        {t('catalog.status', { status: t(`catalog.validity.${validityStatus(entry.data)}`) })}
      </Text>
      <Text size="sm" c="dimmed">
        {t(informationKey(entry), {
          createdAt: formatDateTime(entry.createdAt),
          createdBy: entry.createdBy,
          updatedAt: formatDateTime(entry.updatedAt),
          updatedBy: entry.updatedBy,
          version: entry.version,
        })}
      </Text>
      {confirming && (
        <Alert color="red" role="alertdialog" aria-labelledby="delete-question">
          <Text id="delete-question">{t('catalog.deleteQuestion')}</Text>
          <Group mt="sm">
            <Button color="red" loading={busy} onClick={() => void remove()}>
              {t('catalog.yes')}
            </Button>
            <Button variant="default" onClick={() => setConfirming(false)} autoFocus>
              {t('catalog.no')}
            </Button>
          </Group>
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('catalog.cancel')}
        </Button>
        {canManage && (
          <>
            <Button color="red" variant="light" onClick={() => setConfirming(true)}>
              {t('catalog.delete')}
            </Button>
            <Button onClick={() => onEdit(entry)}>{t('catalog.edit')}</Button>
          </>
        )}
      </Group>
    </Stack>
  );
}

/** An entry of the reference data says so rather than naming the seed as a person. */
function informationKey(entry: CatalogEntryRecord): string {
  if (entry.createdBy !== SEED_ACTOR) return 'catalog.information';
  return entry.updatedBy === SEED_ACTOR
    ? 'catalog.referenceData.loaded'
    : 'catalog.referenceData.changed';
}
