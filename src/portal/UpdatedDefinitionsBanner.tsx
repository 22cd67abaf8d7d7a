import { useSyncExternalStore } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { portalDefinitionsWatch } from './definitionsWatch';

/** Offers a reload once the server runs newer definitions; nothing changes by itself. */
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
