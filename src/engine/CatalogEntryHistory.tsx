import { useState } from 'react';
import { Button, List, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../core/api/client';
import { translatableFieldsOf, type CatalogHistoryLine } from '../core/definitions/catalog-entry';
import type { CatalogDefinition } from '../core/definitions/types';
import { DEFAULT_LANGUAGE, type Language } from '../core/i18n/translate';
import { fieldLabel, languageLabel } from './catalog-fields';
import { formatDateTime } from './format';
import { useCellText } from './useCellText';
import { ErrorAlert } from './ErrorAlert';

export interface CatalogEntryHistoryProps {
  catalog: CatalogDefinition;
  entryId: string;
  api: ApiClient;
  backend: string;
  language: Language;
}

/** An entry's history, read when asked for, oldest first. */
export function CatalogEntryHistory({
  catalog,
  entryId,
  api,
  backend,
  language,
}: CatalogEntryHistoryProps) {
  const { t } = useTranslation();
  const cellText = useCellText(catalog, language);
  const [shown, setShown] = useState(false);
  const [lines, setLines] = useState<CatalogHistoryLine[]>();
  const [failure, setFailure] = useState<string>();
  /** A field's label; a translatable text's names the language changed (English by default). */
  const labelOf = (field: string, code?: string) => {
    const label = fieldLabel(t, catalog, language, field);
    return translatableFieldsOf(catalog).includes(field)
      ? languageLabel(t, label, (code ?? DEFAULT_LANGUAGE) as Language)
      : label;
  };
  const valueOf = (field: string, value: unknown) =>
    value === null || value === '' ? t('catalog.history.emptyValue') : cellText(field, value);

  const toggle = async () => {
    setShown(!shown);
    if (shown || lines) return;
    const path = `/${encodeURIComponent(catalog.id)}/${encodeURIComponent(entryId)}/history`;
    const [error, result] = await api.get<{ items: CatalogHistoryLine[] }>(backend, path);
    if (error) setFailure(error.message);
    else setLines(result.items);
  };

  return (
    <Stack gap="xs" aria-label={t('catalog.history.title')} role="region">
      <Button variant="subtle" aria-expanded={shown} onClick={() => void toggle()}>
        {t(shown ? 'catalog.history.hide' : 'catalog.history.show')}
      </Button>
      <ErrorAlert>{shown && failure}</ErrorAlert>
      {shown && !failure && !lines && (
        <Loader size="sm" role="status" aria-label={t('catalog.history.loading')} />
      )}
      {shown && lines?.length === 0 && <Text size="sm">{t('catalog.history.empty')}</Text>}
      {shown && lines && lines.length > 0 && (
        <List size="sm" spacing="xs">
          {lines.map((line) => (
            <List.Item key={line.version}>
              {t('catalog.history.line', {
                when: formatDateTime(line.changedAt),
                who: line.changedBy,
                action: t(`catalog.history.actions.${line.action}`),
                version: line.version,
              })}
              {line.changes.length > 0 && (
                <List size="sm" withPadding>
                  {line.changes.map((change) => (
                    <List.Item key={`${change.field}-${change.language ?? ''}`}>
                      {t('catalog.history.change', {
                        field: labelOf(change.field, change.language),
                        before: valueOf(change.field, change.before),
                        after: valueOf(change.field, change.after),
                      })}
                    </List.Item>
                  ))}
                </List>
              )}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
