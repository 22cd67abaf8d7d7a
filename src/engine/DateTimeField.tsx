import { useId, useRef, type ReactNode } from 'react';
import { DateInput, TimePicker } from '@mantine/dates';
// The calendar's own styles (also loaded by the form's date widgets; bundled once).
import '@mantine/dates/styles.css';
import 'dayjs/locale/fr';
import { Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { calendarProps } from './calendarLabels';
import { DATE_FORMAT, parseDate, parseDateTime } from './form/format';

export interface DateTimeFieldProps {
  /** The input's id (an error summary's link focuses it). */
  id?: string;
  label: string;
  /** `YYYY-MM-DDTHH:mm:ss` (local time, the catalogue forms' value) or `YYYY-MM-DD`; '' when empty. */
  value: string;
  onChange: (value: string) => void;
  /** A date and a time (DD/MM/YYYY and HH:mm:ss), or a date alone (DD/MM/YYYY). */
  withTime?: boolean;
  required?: boolean;
  error?: ReactNode;
  w?: number;
  onEnter?: () => void;
}

/** The time of a day chosen without one: midnight, the start of the day. */
const START_OF_DAY = '00:00:00';

/** A date (and time) as the portal writes them (DD/MM/YYYY HH:mm:ss), not in the browser's locale. */
export function DateTimeField({
  id: givenId,
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
  const ownId = useId();
  const id = givenId ?? ownId;
  const date = value === '' ? '' : value.slice(0, 10);
  const time = withTime && value.length > 10 ? value.slice(11, 19) : '';
  // A time typed with the date ("01/01/2024 08:30:00"), for the change the parser causes.
  const typedTime = useRef<string | undefined>(undefined);
  const parser = (text: string): string | null => {
    if (!withTime) return parseDate(text);
    const both = parseDateTime(text);
    typedTime.current = both ? both.slice(11) : undefined;
    return both ? both.slice(0, 10) : parseDate(text);
  };
  const dateInput = (
    <DateInput
      id={id}
      label={label}
      withAsterisk={required}
      error={error}
      w={withTime ? undefined : w}
      flex={withTime ? 1 : undefined}
      miw={withTime ? 150 : undefined}
      valueFormat={DATE_FORMAT}
      dateParser={parser}
      placeholder={DATE_FORMAT}
      clearable
      clearButtonProps={{ 'aria-label': t('catalog.emptyDate') }}
      {...calendarProps(i18n.resolvedLanguage === 'fr' ? 'fr' : 'en', t)}
      value={date === '' ? null : date}
      onChange={(next) => {
        const kept = typedTime.current ?? (time || START_OF_DAY);
        typedTime.current = undefined;
        if (!next) onChange('');
        else onChange(withTime ? `${next.slice(0, 10)}T${kept}` : next.slice(0, 10));
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && onEnter) onEnter();
      }}
    />
  );
  if (!withTime) return dateInput;
  // The time's fields are described by the date's label: "Hours, Valid from".
  const describedBy = { 'aria-describedby': `${id}-label` };
  return (
    <Group gap="xs" align="flex-start" wrap="wrap" w={w}>
      {dateInput}
      <TimePicker
        label={t('catalog.time.label')}
        withSeconds
        format="24h"
        w={120}
        disabled={date === ''}
        value={time}
        // An incomplete time (a field being retyped) changes nothing until it is whole.
        onChange={(next) => {
          if (date !== '' && /^\d{2}:\d{2}:\d{2}$/.test(next)) onChange(`${date}T${next}`);
        }}
        hoursInputLabel={t('catalog.time.hours')}
        minutesInputLabel={t('catalog.time.minutes')}
        secondsInputLabel={t('catalog.time.seconds')}
        hoursInputProps={describedBy}
        minutesInputProps={describedBy}
        secondsInputProps={describedBy}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && onEnter) onEnter();
        }}
      />
    </Group>
  );
}
