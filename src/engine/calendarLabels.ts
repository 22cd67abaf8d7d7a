import type { CalendarAriaLabels } from '@mantine/dates';

type Translate = (key: string) => string;

/**
 * The names of a calendar's controls in the page's language (`calendar.*`): Mantine's previous
 * and next buttons and its month and year headings have none of their own, so a screen reader
 * met unnamed buttons as soon as a date field's calendar opened.
 */
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
