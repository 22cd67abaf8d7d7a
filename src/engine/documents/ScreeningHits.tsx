import { Alert, List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ScreeningHit } from '../../core/documents/types';
import { formatDateTime } from '../format';
import { useAnswer } from '../useAnswer';
import type { DocumentSource } from './DocumentChrome';

/**
 * The document's screening hits (docs/workflows.md, "Screening"), as an alert for the officers
 * who see every document of its type: which block list, the entry's reason, when, and whether
 * the action was refused or the case flagged by a block added later. The server answers them
 * to those officers only; nothing is shown while there is none or they cannot be read.
 */
export function ScreeningHits({ api, backend, type, id, current }: DocumentSource) {
  const { t, i18n } = useTranslation();
  const hits = useAnswer(
    () =>
      api
        .get<{ items: ScreeningHit[] }>(backend, `/${type}/${id}/screening`)
        .then(([error, answer]) => (error ? [] : answer.items)),
    // Read again in the reader's language (the reasons are translated) and at each version.
    [api, backend, type, id, current, i18n.language],
  );
  if (!hits?.length) return null;
  return (
    <Alert
      color="red"
      role="alert"
      title={t('documents.screening.title')}
      data-testid="screening-hits"
    >
      <Text size="sm" mb="xs">
        {t('documents.screening.intro')}
      </Text>
      <List size="sm" spacing={4}>
        {hits.map((hit) => (
          <List.Item key={hit.id} data-catalog={hit.catalog} data-outcome={hit.outcome}>
            <Text span fw={600}>
              {hit.catalogTitle}
            </Text>
            {hit.reason ? ` — ${hit.reason}` : ''}
            {' · '}
            {t(`documents.screening.${hit.outcome}`, {
              action: t(`actions.${hit.action}`, { defaultValue: hit.action }),
            })}
            {' · '}
            {formatDateTime(hit.at)}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
