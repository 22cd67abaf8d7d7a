import type { DateInputProps } from '@mantine/dates';

type Translate = (key: string) => string;

/**
 * The settings of every calendar: controls named in the page's language (Mantine gives them none),
 * and no faded outside days nor red weekends (both below WCAG 1.4.3 contrast).
 */
export function calendarProps(
  locale: string,
  t: Translate,
): Pick<DateInputProps, 'locale' | 'ariaLabels' | 'hideOutsideDates' | 'weekendDays'> {
  return {
    locale,
    ariaLabels: {
      previousMonth: t('calendar.previousMonth'),
      nextMonth: t('calendar.nextMonth'),
      previousYear: t('calendar.previousYear'),
      nextYear: t('calendar.nextYear'),
      previousDecade: t('calendar.previousDecade'),
      nextDecade: t('calendar.nextDecade'),
      monthLevelControl: t('calendar.monthLevel'),
      yearLevelControl: t('calendar.yearLevel'),
    },
    hideOutsideDates: true,
    weekendDays: [],
  };
}
