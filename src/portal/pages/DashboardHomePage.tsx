import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePortal } from '../context';
import { HomeLinks } from './HomeLinks';

/** The signed-in user's home (/dashboard/home): a welcome, and what the user may open. */
export function DashboardHomePage() {
  const { t } = useTranslation();
  const { session } = usePortal();
  const name = session.name ?? session.username ?? '';

  return (
    <Stack gap="md" maw={900}>
      <Title order={2}>{t('pages.welcome', { name })}</Title>
      <Text>{t('pages.homeIntro')}</Text>
      <HomeLinks />
    </Stack>
  );
}
