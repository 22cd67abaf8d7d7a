import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { DocumentView } from '../../core/documents/types';

/**
 * A timer's day in the page's language, as the reminders name it (UTC: the day it is due),
 * months from the texts: a first Intl.DateTimeFormat costs 40-160 ms of main thread.
 */
export function dueDay(t: TFunction, iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-');
  return `${Number(day)} ${t(`pages.statistics.monthNames.${month}`)} ${year}`;
}

/**
 * What the document waits for and until when (docs/workflows.md, "Timers"): "Reply by <date>",
 * the workflow's `<type>.timers.<name>` text, else the engine's "Due by <date>".
 */
export function PendingTimers({ document }: { document: DocumentView }) {
  const { t } = useTranslation();
  if (!document.timers?.length) return null;
  return (
    <>
      {document.timers.map((timer) => {
        const date = dueDay(t, timer.dueAt);
        return (
          <Text key={timer.name} size="sm" fw={500} data-timer={timer.name} role="note">
            {t(`${document.type}.timers.${timer.name}`, {
              date,
              defaultValue: t('timers.dueBy', { date }),
            })}
          </Text>
        );
      })}
    </>
  );
}
