import { memo, useCallback } from 'react';
import { DateInput } from '@mantine/dates';
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
import { inputProps, type EngineWidgetProps } from './common';
import { contextOf, t } from '../context';
import { calendarProps } from '../../calendarLabels';

/**
 * A date typed or picked as DD/MM/YYYY, stored as ISO `YYYY-MM-DD`; `withTime`, a date and time
 * as DD/MM/YYYY HH:mm:ss, stored as ISO 8601 with the local offset.
 */
function dateWidget(withTime: boolean) {
  const format = withTime ? DATETIME_FORMAT : DATE_FORMAT;
  return memo(function DateWidget(props: EngineWidgetProps) {
    const { id, onChange, onBlur, value } = props;
    const change = useCallback(
      (next: string | null) =>
        onChange(withTime ? (next ? pickerToIso(next) : undefined) : (next ?? undefined)),
      [onChange],
    );
    const given = typeof value === 'string' && value !== '' ? value : undefined;
    const context = contextOf(props.registry.formContext);
    return (
      <DateInput
        {...inputProps(props)}
        withTime={withTime}
        // A date the server fills (an invoice line's submission) reads at full contrast.
        disabled={props.disabled || (withTime && props.readonly)}
        readOnly={!withTime && props.readonly}
        {...calendarProps(context.language, (key) => t(context, key))}
        valueFormat={format}
        dateParser={withTime ? parseDateTime : parseDate}
        placeholder={format}
        value={given === undefined ? null : withTime ? isoToPicker(given) : given}
        onChange={change}
        onBlur={() => onBlur(id, value)}
      />
    );
  });
}

export const DateWidget = dateWidget(false);
export const DateTimeWidget = dateWidget(true);
