import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DashboardDocuments } from './DashboardDocuments';

/** My Library (/dashboard/my-library): every document the user owns, of every module. */
export function MyLibraryPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={2}>{t('menu.myLibrary')}</Title>
      <Text c="dimmed">{t('pages.library.intro')}</Text>
      <DashboardDocuments endpoint="/dashboard/library" />
    </Stack>
  );
}
