import { Card, Loader, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WorkflowStatistics } from '../../../core/dashboard/types';
import type { WorkflowDefinition } from '../../../core/documents/workflow';
import { useApiGet } from '../../useApiGet';
import { useLanguage } from '../../useLanguage';
import { CountTable } from './CountTable';
import './statistics-panel.css';
import { DEFAULT_BACKEND } from '../../../core/documents/conventions';
import { ErrorAlert } from '../../../engine/ErrorAlert';

/** Statistics of one workflow's documents (specification 000, section 1). */
export function StatisticsPanel({ workflow }: { workflow: WorkflowDefinition }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const { value: statistics, failed } = useApiGet<WorkflowStatistics>(
    DEFAULT_BACKEND,
    `/statistics/${encodeURIComponent(workflow.id)}`,
  );

  const title = t(`${workflow.document}._title`);
  if (failed) return <ErrorAlert>{t('messages.unableToFetch')}</ErrorAlert>;
  if (!statistics) return <Loader aria-label={t('messages.loading')} role="status" />;

  // Month names are texts: a first Intl.DateTimeFormat costs 40-160 ms of main thread.
  const months = statistics.months.map((m) => {
    const [year, month] = m.month.split('-');
    return { label: `${t(`pages.statistics.monthNames.${month}`)} ${year}`, count: m.count };
  });
  const statuses = statistics.byStatus.map((s) => ({
    label: t(`statuses.${s.status}`, { defaultValue: s.status }),
    count: s.count,
  }));
  return (
    <section className="portal-statistics" aria-label={t('pages.statistics.title', { title })}>
      <Title order={3} size="h4" mb="xs">
        {t('pages.statistics.title', { title })}
      </Title>
      <div className="portal-statistics-grid">
        {/* The months are always there (zero-filled): only the statuses may be none. */}
        {(
          [
            [t('pages.statistics.byStatus', { title, year: statistics.year }), 'status', statuses],
            [t('pages.statistics.lastMonths', { title }), 'month', months],
          ] as const
        ).map(([caption, heading, rows]) => (
          <Card key={heading} withBorder>
            {rows.length === 0 ? (
              <>
                <Text fw={600} mb="xs">
                  {caption}
                </Text>
                <Text c="dimmed">{t('messages.noData')}</Text>
              </>
            ) : (
              <CountTable
                caption={caption}
                labelHeading={t(`pages.statistics.${heading}`)}
                countHeading={t('pages.statistics.count')}
                rows={rows}
                tone={heading === 'status' ? 'brand' : 'secondary'}
                language={language}
              />
            )}
          </Card>
        ))}
      </div>
    </section>
  );
}
