import type { CalendarAriaLabels } from '@mantine/dates';

type Translate = (key: string) => string;

/** The names of a calendar's controls in the page's language: Mantine gives them none. */
export function calendarLabels(t: Translate): CalendarAriaLabels {
  return {
    previousMonth: t('calendar.previousMonth'),
    nextMonth: t('calendar.nextMonth'),
    previousYear: t('calendar.previousYear'),
    nextYear: t('calendar.nextYear'),
    previousDecade: t('calendar.previousDecade'),
    nextDecade: t('calendar.nextDecade'),
    monthLevelControl: t('calendar.monthLevel'),
    yearLevelControl: t('calendar.yearLevel'),
  };
}
