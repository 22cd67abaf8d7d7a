import { Paper, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryEntry } from '../../core/documents/types';
import { formatDateTime } from '../format';
import { useDocumentHistory, type DocumentSource } from './DocumentChrome';

/** The notes of the latest of `actions` in the history, shown at the top of a screen (`showNotesOf`). */
export function LatestActionNotes({
  actions,
  ...source
}: DocumentSource & { actions: readonly string[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  // The latest entry of the history taken by one of `actions` with notes, if any.
  const latest = useDocumentHistory(source)
    .filter((entry) => actions.includes(entry.action) && entry.notes?.trim())
    .reduce<HistoryEntry | undefined>((a, b) => (a && a.version >= b.version ? a : b), undefined);
  if (!latest) return null;
  const action = latest.action;
  const title = t(`actionNotes.titles.${action}`, {
    defaultValue: t('actionNotes.title', { action: t(`actions.${action}`, action) }),
  });
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      p="md"
      radius="md"
      data-testid="latest-action-notes"
      style={{ borderLeft: '4px solid var(--mantine-color-blue-filled)' }}
    >
      <Title order={3} size="h5" id={headingId}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {t('actionNotes.at', { date: formatDateTime(latest.at) })}
      </Text>
      <Text style={{ whiteSpace: 'pre-wrap' }}>{latest.notes}</Text>
    </Paper>
  );
}
