import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DashboardDocuments } from './DashboardDocuments';

/** My Tasks (/dashboard/my-tasks): what is assigned to the user or waits in the user's queues. */
export function MyTasksPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={2}>{t('menu.myTasks')}</Title>
      <Text c="dimmed">{t('pages.tasks.intro')}</Text>
      <DashboardDocuments endpoint="/dashboard/tasks" withReason />
    </Stack>
  );
}
