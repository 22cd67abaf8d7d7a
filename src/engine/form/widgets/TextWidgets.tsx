import { memo, useCallback, type ChangeEvent } from 'react';
import { TextInput } from '@mantine/core';
import { isMoneyInput } from '../format';
import { descriptionOf, errorOf, labelOf, type EngineWidgetProps } from './common';

function makeTextWidget(type: 'email' | 'tel', inputMode: 'email' | 'tel', autoComplete: string) {
  function TextWidget(props: EngineWidgetProps) {
    const { id, onChange, onBlur, value } = props;
    const change = useCallback(
      (event: ChangeEvent<HTMLInputElement>) =>
        onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value),
      [onChange],
    );
    return (
      <TextInput
        id={id}
        type={type}
        inputMode={inputMode}
        autoComplete={autoComplete}
        label={labelOf(props)}
        description={descriptionOf(props)}
        withAsterisk={props.required}
        disabled={props.disabled || props.readonly}
        error={errorOf(props)}
        value={typeof value === 'string' ? value : ''}
        onChange={change}
        onBlur={() => onBlur(id, value)}
      />
    );
  }
  return memo(TextWidget);
}

export const EmailWidget = makeTextWidget('email', 'email', 'email');
export const PhoneWidget = makeTextWidget('tel', 'tel', 'tel');

/** NZD amounts kept as a decimal string (`"1234.50"`), never a float. */
export const MoneyWidget = memo(function MoneyWidget(props: EngineWidgetProps) {
  const { id, onChange, onBlur, value } = props;
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  const change = useCallback(
    (event: ChangeEvent<HTMLInputElement>) => {
      const next = event.currentTarget.value.replace(/,/g, '').trim();
      if (!isMoneyInput(next)) return;
      onChange(next === '' ? undefined : next);
    },
    [onChange],
  );
  const blur = useCallback(() => {
    // Completes "12." or "12.5" to two decimals on leaving the field.
    if (/^\d+\.\d?$/.test(text)) {
      const [whole, cents = ''] = text.split('.');
      const fixed = `${whole}.${cents.padEnd(2, '0')}`;
      onChange(fixed);
      onBlur(id, fixed);
    } else onBlur(id, value);
  }, [text, onChange, onBlur, id, value]);
  return (
    <TextInput
      id={id}
      inputMode="decimal"
      leftSection="NZD"
      leftSectionWidth={48}
      label={labelOf(props)}
      description={descriptionOf(props)}
      withAsterisk={props.required}
      disabled={props.disabled || props.readonly}
      error={errorOf(props)}
      value={text}
      onChange={change}
      onBlur={blur}
    />
  );
});
