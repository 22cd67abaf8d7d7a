import { useSyncExternalStore } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { portalDefinitionsWatch } from './definitionsWatch';

/**
 * Said once the server answers with newer definitions (a publish): the page still runs the
 * ones it loaded, so it offers to reload; until then nothing changes under the person's hands.
 */
export function UpdatedDefinitionsBanner() {
  const { t } = useTranslation();
  const outdated = useSyncExternalStore(
    portalDefinitionsWatch.subscribe,
    portalDefinitionsWatch.current,
  );
  if (!outdated) return null;
  return (
    <Alert color="blue" variant="light" role="status" mb="md" title={t('messages.updatedTitle')}>
      <Group justify="space-between" gap="sm">
        <Text size="sm">{t('messages.updatedText')}</Text>
        <Button size="xs" onClick={() => globalThis.location.reload()}>
          {t('messages.reload')}
        </Button>
      </Group>
    </Alert>
  );
}
