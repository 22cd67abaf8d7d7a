import type { ReactNode } from 'react';
import { DateInput } from '@mantine/dates';
// The calendar's own styles (also loaded by the form's date widgets; bundled once).
import '@mantine/dates/styles.css';
import 'dayjs/locale/fr';
import { useTranslation } from 'react-i18next';
import { calendarLabels } from './calendarLabels';
import { DATE_FORMAT, DATETIME_FORMAT, parseDate, parseDateTime } from './form/format';

export interface DateTimeFieldProps {
  /** The input's id (an error summary's link focuses it). */
  id?: string;
  label: string;
  /** `YYYY-MM-DDTHH:mm:ss` (local time, the catalogue forms' value) or `YYYY-MM-DD`; '' when empty. */
  value: string;
  onChange: (value: string) => void;
  /** A date and a time (DD/MM/YYYY HH:mm:ss), or a date alone (DD/MM/YYYY). */
  withTime?: boolean;
  required?: boolean;
  error?: ReactNode;
  w?: number;
  onEnter?: () => void;
}

/**
 * A date, or a date and time, typed or picked as the portal writes them everywhere
 * (DD/MM/YYYY HH:mm:ss), with the calendar's month and day names in the page's language;
 * the browser's native `datetime-local` would follow the browser's locale instead (US order).
 */
export function DateTimeField({
  id,
  label,
  value,
  onChange,
  withTime = true,
  required,
  error,
  w,
  onEnter,
}: DateTimeFieldProps) {
  const { i18n, t } = useTranslation();
  const format = withTime ? DATETIME_FORMAT : DATE_FORMAT;
  return (
    <DateInput
      id={id}
      label={label}
      withAsterisk={required}
      error={error}
      w={w}
      withTime={withTime}
      locale={i18n.resolvedLanguage === 'fr' ? 'fr' : 'en'}
      valueFormat={format}
      dateParser={withTime ? parseDateTime : parseDate}
      placeholder={format}
      clearable
      clearButtonProps={{ 'aria-label': t('catalog.emptyDate') }}
      ariaLabels={calendarLabels(t)}
      // Mantine's faded days of the next and last months and its red weekends are below the
      // contrast ratio WCAG asks (1.4.3); no date a form asks for depends on the weekday.
      hideOutsideDates
      weekendDays={[]}
      // The picker speaks `YYYY-MM-DD HH:mm:ss`; the forms keep the datetime-local shape.
      value={value === '' ? null : value.replace('T', ' ')}
      onChange={(next) => onChange(next ? (withTime ? next.replace(' ', 'T') : next) : '')}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && onEnter) onEnter();
      }}
    />
  );
}
