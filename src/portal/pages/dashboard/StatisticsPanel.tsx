import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { Alert, Box, Card, Loader, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WorkflowStatistics } from '../../../core/dashboard/types';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import { formatNumber } from '../../../core/format';
import { usePortal } from '../../context';
import { useLanguage } from '../../useLanguage';
import type { CountChartProps } from './CountChart';

/**
 * The charts' code (recharts), fetched once the panel has its figures to draw. Offline and not
 * cached, the panel keeps its tables and shows no chart.
 */
const CountChart = lazy<ComponentType<CountChartProps>>(() =>
  import('./CountChart').catch((error: unknown) => {
    console.warn('[portal] the charts could not be loaded', error);
    return { default: () => null };
  }),
);
/** CountChart's height: its place is kept while its code loads, so nothing below moves. */
const CHART_HEIGHT = 220;

/**
 * Statistics of one workflow's documents (specification 000, section 1: visa applications in
 * the current year and the last 6 months), from the server's aggregate: the charts, and the
 * same figures as tables for screen readers and keyboard users.
 */
export function StatisticsPanel({ workflow }: { workflow: WorkflowDefinition }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const language = useLanguage();
  const [statistics, setStatistics] = useState<WorkflowStatistics>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    void api
      .get<WorkflowStatistics>('evisa', `/statistics/${encodeURIComponent(workflow.id)}`)
      .then(([error, result]) => {
        if (!current) return;
        if (error) setFailed(true);
        else setStatistics(result);
      });
    return () => {
      current = false;
    };
  }, [api, workflow.id]);

  const title = t(`${workflow.document}._title`);
  if (failed)
    return (
      <Alert color="red" role="alert">
        {t('messages.unableToFetch')}
      </Alert>
    );
  if (!statistics) return <Loader aria-label={t('messages.loading')} role="status" />;

  const monthName = (month: string) => {
    const [year, index] = month.split('-').map(Number);
    return new Intl.DateTimeFormat(language, { month: 'short', year: 'numeric' }).format(
      new Date(year ?? 1970, (index ?? 1) - 1, 1),
    );
  };
  const months = statistics.months.map((m) => ({ month: monthName(m.month), count: m.count }));
  const statuses = statistics.byStatus.map((s) => ({
    status: t(`statuses.${s.status}`, { defaultValue: s.status }),
    count: s.count,
  }));
  const count = t('pages.statistics.count');
  const figures = (rows: Array<{ label: string; count: number }>, caption: string) => (
    <Table striped withTableBorder>
      <Table.Caption>{caption}</Table.Caption>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.label}>
            <Table.Th scope="row">{row.label}</Table.Th>
            <Table.Td>{formatNumber(row.count, language)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  const yearCaption = t('pages.statistics.byStatus', { title, year: statistics.year });
  const monthsCaption = t('pages.statistics.lastMonths', { title });

  return (
    <section aria-label={t('pages.statistics.title', { title })}>
      <Title order={3} size="h4" mb="xs">
        {t('pages.statistics.title', { title })}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Text fw={600} mb="xs">
            {yearCaption}
          </Text>
          {statuses.length === 0 ? (
            <Text c="dimmed">{t('messages.noData')}</Text>
          ) : (
            <>
              <Suspense fallback={<Box h={CHART_HEIGHT} />}>
                <CountChart data={statuses} dataKey="status" label={count} color="brand.6" />
              </Suspense>
              {figures(
                statuses.map((s) => ({ label: s.status, count: s.count })),
                yearCaption,
              )}
            </>
          )}
        </Card>
        <Card withBorder>
          <Text fw={600} mb="xs">
            {monthsCaption}
          </Text>
          <Suspense fallback={<Box h={CHART_HEIGHT} />}>
            <CountChart data={months} dataKey="month" label={count} color="secondary.7" />
          </Suspense>
          {figures(
            months.map((m) => ({ label: m.month, count: m.count })),
            monthsCaption,
          )}
        </Card>
      </SimpleGrid>
    </section>
  );
}
