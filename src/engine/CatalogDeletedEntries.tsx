import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../core/api/client';
import { shownCatalogFields } from './catalog-fields';
import type { CatalogEntryRecord } from '../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../core/definitions/types';
import type { Language } from '../core/i18n/translate';
import { formatDateTime } from './format';
import { useAnswer } from './useAnswer';
import { useCellText } from './useCellText';
import { ErrorAlert } from './ErrorAlert';

export interface CatalogDeletedEntriesProps {
  opened: boolean;
  catalog: CatalogDefinition;
  api: ApiClient;
  backend: string;
  language: Language;
  onClose: () => void;
  onRestored: () => void;
}

type DeletedEntry = CatalogEntryRecord & { deletedAt: string };

/** A catalogue's deleted entries, latest first, each restored once confirmed. */
export function CatalogDeletedEntries(props: CatalogDeletedEntriesProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('catalog.deletedEntries.title')}
      closeButtonProps={{ 'aria-label': t('catalog.close') }}
      size="lg"
    >
      {props.opened && <DeletedList {...props} />}
    </Modal>
  );
}

function DeletedList({ catalog, api, backend, language, onRestored }: CatalogDeletedEntriesProps) {
  const { t } = useTranslation();
  const cellText = useCellText(catalog, language);
  const [refused, setRefused] = useState<string>();
  const [asking, setAsking] = useState<DeletedEntry>();
  const [busy, setBusy] = useState(false);
  const path = `/${encodeURIComponent(catalog.id)}`;
  const [loadError, found] =
    useAnswer(
      () => api.get<{ items: DeletedEntry[] }>(backend, `${path}/deleted`),
      [api, backend, path],
    ) ?? [];
  const entries = found?.items;
  const failure = refused ?? loadError?.message;

  const restore = async (entry: DeletedEntry) => {
    setBusy(true);
    const [error] = await api.post<unknown>(
      backend,
      `${path}/${encodeURIComponent(entry.id)}/restore`,
      { version: entry.version },
    );
    setBusy(false);
    setAsking(undefined);
    if (error) setRefused(error.message);
    else onRestored();
  };

  if (!entries && !failure)
    return <Loader role="status" aria-label={t('catalog.deletedEntries.loading')} />;
  const names = shownCatalogFields(catalog).slice(0, 2);
  return (
    <Stack gap="md">
      <ErrorAlert>{failure}</ErrorAlert>
      {entries?.length === 0 && <Text>{t('catalog.deletedEntries.none')}</Text>}
      {entries && entries.length > 0 && (
        <Table withTableBorder>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>
                  {names.map((name) => cellText(name, entry.data[name])).join(' ')}
                  <Text size="xs" c="dimmed">
                    {t('catalog.deletedEntries.line', {
                      deletedAt: formatDateTime(entry.deletedAt),
                      deletedBy: entry.updatedBy,
                    })}
                  </Text>
                </Table.Td>
                <Table.Td align="right">
                  <Button variant="light" onClick={() => setAsking(entry)} disabled={busy}>
                    {t('catalog.deletedEntries.restore')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {asking && (
        <Alert color="yellow" role="alertdialog" aria-labelledby="restore-question">
          <Text id="restore-question">{t('catalog.deletedEntries.restoreQuestion')}</Text>
          <Group mt="sm">
            <Button loading={busy} onClick={() => void restore(asking)}>
              {t('catalog.yes')}
            </Button>
            <Button variant="default" onClick={() => setAsking(undefined)} autoFocus>
              {t('catalog.no')}
            </Button>
          </Group>
        </Alert>
      )}
    </Stack>
  );
}
