import { memo, useCallback } from 'react';
import { DateInput, type DateInputProps } from '@mantine/dates';
// The calendar's own styles, loaded with the form's chunk after @mantine/core's (src/portal/main.tsx).
import '@mantine/dates/styles.css';
// The calendar's month and day names follow the form's language (dayjs has English built in).
import 'dayjs/locale/fr';
import {
  DATE_FORMAT,
  DATETIME_FORMAT,
  isoToPicker,
  parseDate,
  parseDateTime,
  pickerToIso,
} from '../format';
import { descriptionOf, errorOf, labelOf, type EngineWidgetProps } from './common';
import { contextOf, t, type EngineFormContext } from '../context';
import { calendarLabels } from '../../calendarLabels';

/**
 * Calendar settings shared with DateTimeField: controls named in the form's language, and no
 * faded outside days nor red weekends (both below WCAG 1.4.3 contrast).
 */
function calendarProps(
  context: EngineFormContext,
): Pick<DateInputProps, 'locale' | 'ariaLabels' | 'hideOutsideDates' | 'weekendDays'> {
  return {
    locale: context.language,
    ariaLabels: calendarLabels((key) => t(context, key)),
    hideOutsideDates: true,
    weekendDays: [],
  };
}

/** A date typed or picked as DD/MM/YYYY, stored as ISO `YYYY-MM-DD`. */
export const DateWidget = memo(function DateWidget(props: EngineWidgetProps) {
  const { id, onChange, onBlur, value } = props;
  const change = useCallback((next: string | null) => onChange(next ?? undefined), [onChange]);
  return (
    <DateInput
      id={id}
      label={labelOf(props)}
      description={descriptionOf(props)}
      withAsterisk={props.required}
      disabled={props.disabled}
      // A date the server fills (an invoice line's submission) reads at full contrast.
      readOnly={props.readonly}
      error={errorOf(props)}
      {...calendarProps(contextOf(props.registry.formContext))}
      valueFormat={DATE_FORMAT}
      dateParser={parseDate}
      placeholder={DATE_FORMAT}
      value={typeof value === 'string' && value !== '' ? value : null}
      onChange={change}
      onBlur={() => onBlur(id, value)}
    />
  );
});

/** A date and time as DD/MM/YYYY HH:mm:ss, stored as ISO 8601 with the local offset. */
export const DateTimeWidget = memo(function DateTimeWidget(props: EngineWidgetProps) {
  const { id, onChange, onBlur, value } = props;
  const change = useCallback(
    (next: string | null) => onChange(next ? pickerToIso(next) : undefined),
    [onChange],
  );
  return (
    <DateInput
      id={id}
      withTime
      label={labelOf(props)}
      description={descriptionOf(props)}
      withAsterisk={props.required}
      disabled={props.disabled || props.readonly}
      error={errorOf(props)}
      {...calendarProps(contextOf(props.registry.formContext))}
      valueFormat={DATETIME_FORMAT}
      dateParser={parseDateTime}
      placeholder={DATETIME_FORMAT}
      value={typeof value === 'string' && value !== '' ? isoToPicker(value) : null}
      onChange={change}
      onBlur={() => onBlur(id, value)}
    />
  );
});
