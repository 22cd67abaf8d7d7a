import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SECURITY_PANELS } from './securityPanels';

/** The signed-in person's security: one section per panel (securityPanels.ts). */
export function SecurityPage() {
  const { t } = useTranslation();
  return (
    <Stack maw={880} gap="lg">
      <Title order={2}>{t('menu.security')}</Title>
      {SECURITY_PANELS.map(({ id, Panel }) => (
        <Panel key={id} />
      ))}
    </Stack>
  );
}
