import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { workflowRoles } from '../../core/documents/workflow';
import { usePortal } from '../context';
import { MY_LIBRARY_PATH, MY_TASKS_PATH } from '../paths';
import { HomeLinks } from './HomeLinks';
import { InboxArea } from './dashboard/InboxArea';
import { StatisticsPanel } from './dashboard/StatisticsPanel';
import { URGENT_TEXT } from '../theme';

/** The signed-in user's home (/dashboard/home). */
export function DashboardHomePage() {
  const { t } = useTranslation();
  const { bundle, session } = usePortal();
  const name = session.name ?? session.username ?? '';
  // Only the document types the user works with.
  const withStatistics = bundle.workflows.filter(
    (workflow) => workflow.statistics && session.hasAnyRole(workflowRoles(workflow)),
  );

  return (
    <Stack gap="lg">
      <Title order={2}>{t('pages.welcome', { name })}</Title>
      <Group align="stretch" grow>
        <Card withBorder>
          <Anchor component={Link} to={MY_TASKS_PATH} c={URGENT_TEXT} fw={700}>
            {t('menu.myTasks')}
          </Anchor>
          <Text size="sm">{t('pages.tasks.description')}</Text>
        </Card>
        <Card withBorder>
          <Anchor component={Link} to={MY_LIBRARY_PATH} fw={700}>
            {t('menu.myLibrary')}
          </Anchor>
          <Text size="sm">{t('pages.library.description')}</Text>
        </Card>
      </Group>
      <HomeLinks />
      <InboxArea />
      {withStatistics.map((workflow) => (
        <StatisticsPanel key={workflow.id} workflow={workflow} />
      ))}
    </Stack>
  );
}
