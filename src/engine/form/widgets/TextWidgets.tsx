import { memo, useCallback } from 'react';
import { Textarea, TextInput } from '@mantine/core';
import { cleanupOptions } from '@rjsf/mantine/lib/utils.js';
import {
  getInputProps,
  getTemplate,
  labelValue,
  type RJSFSchema,
  type UIOptionsType,
} from '@rjsf/utils';
import { isMoneyInput } from '../format';
import { errorOf, inputProps, type EngineWidgetProps } from './common';
import { useLazyText } from './useLazyText';

const asText = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/** The text kept locally (useLazyText), '' handed to the form as `emptyValue`. */
function useWidgetText<E extends HTMLInputElement | HTMLTextAreaElement>(
  props: EngineWidgetProps,
  emptyValue: unknown,
) {
  const { id, onChange, onBlur } = props;
  const commit = useCallback(
    (typed: string) => onChange(typed === '' ? emptyValue : typed),
    [onChange, emptyValue],
  );
  const text = useLazyText<E>(asText(props.value), commit);
  const { flush } = text;
  const blur = useCallback(() => onBlur(id, flush()), [onBlur, id, flush]);
  return { ...text, blur };
}

/** The engine's own ui:options (docs/forms.md), read by its templates, never an input's attribute. */
const ENGINE_OPTIONS = new Set(['labelFrom', 'requiredFrom', 'required', 'groupLabelFrom']);

/** The other ui:options, passed to the Mantine input as @rjsf/mantine does (RJSF's own left out). */
function themeProps(options: UIOptionsType<unknown, RJSFSchema>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(cleanupOptions(options)).filter(([key]) => !ENGINE_OPTIONS.has(key)),
  );
}

/** What @rjsf/mantine's text input shows as the description. */
function descriptionWithSchema(props: EngineWidgetProps): string | undefined {
  if (props.hideLabel) return undefined;
  const description = props.options.description || props.schema.description;
  return typeof description === 'string' && description !== '' ? description : undefined;
}

/** RJSF's `TextWidget`: plain strings kept locally, others @rjsf/mantine's `BaseInputTemplate`. */
export function TextWidget(props: EngineWidgetProps) {
  const { options, registry, schema } = props;
  const lazy =
    schema.type === 'string' &&
    schema.examples === undefined &&
    !options.allowClearTextInputs &&
    (options.inputType === undefined ||
      ['text', 'search', 'email', 'tel', 'url'].includes(String(options.inputType)));
  if (lazy) return <LazyStringInput {...props} />;
  const BaseInputTemplate = getTemplate<'BaseInputTemplate', unknown, RJSFSchema>(
    'BaseInputTemplate',
    registry,
    options,
  );
  return <BaseInputTemplate {...props} />;
}

const LazyStringInput = memo(function LazyStringInput(props: EngineWidgetProps) {
  const { id, onFocus, options, schema, readonly } = props;
  const text = useWidgetText<HTMLInputElement>(props, options.emptyValue);
  const inputProps = getInputProps<unknown, RJSFSchema>(schema, 'text', options);
  return (
    <TextInput
      ref={text.ref}
      id={id}
      name={props.htmlName || id}
      label={labelValue(props.label || undefined, props.hideLabel, false)}
      required={props.required}
      autoFocus={props.autofocus}
      disabled={props.disabled}
      // Read-only, not disabled: in the tab order, at full contrast, announced as read-only.
      readOnly={readonly}
      // An empty placeholder attribute still costs the browser a style change per keystroke.
      placeholder={props.placeholder || undefined}
      error={errorOf(props)}
      {...inputProps}
      {...themeProps(options)}
      description={descriptionWithSchema(props)}
      defaultValue={text.defaultValue}
      onChange={readonly ? undefined : text.onChange}
      onBlur={readonly ? undefined : text.blur}
      onFocus={readonly ? undefined : (event) => onFocus(id, event.currentTarget.value)}
    />
  );
});

/** RJSF's `TextareaWidget`: @rjsf/mantine's textarea with the text kept locally. */
export const TextareaWidget = memo(function TextareaWidget(props: EngineWidgetProps) {
  const { id, onFocus, options, readonly } = props;
  const text = useWidgetText<HTMLTextAreaElement>(props, options.emptyValue);
  return (
    <Textarea
      ref={text.ref}
      id={id}
      name={props.htmlName || props.name}
      placeholder={props.placeholder || undefined}
      required={props.required}
      disabled={props.disabled || readonly}
      autoFocus={props.autofocus}
      label={labelValue(props.label || undefined, props.hideLabel, false)}
      error={errorOf(props)}
      {...themeProps(options)}
      defaultValue={text.defaultValue}
      onChange={text.onChange}
      onBlur={text.blur}
      onFocus={(event) => onFocus(id, event.currentTarget.value)}
    />
  );
});

function makeTextWidget(type: 'email' | 'tel', inputMode: 'email' | 'tel', autoComplete: string) {
  function TextWidget(props: EngineWidgetProps) {
    const text = useWidgetText<HTMLInputElement>(props, undefined);
    return (
      <TextInput
        ref={text.ref}
        {...inputProps(props)}
        type={type}
        inputMode={inputMode}
        autoComplete={autoComplete}
        disabled={props.disabled || props.readonly}
        defaultValue={text.defaultValue}
        onChange={text.onChange}
        onBlur={text.blur}
      />
    );
  }
  return memo(TextWidget);
}

export const EmailWidget = makeTextWidget('email', 'email', 'email');
export const PhoneWidget = makeTextWidget('tel', 'tel', 'tel');

const moneyText = (typed: string) => typed.replace(/,/g, '').trim();

/** NZD amounts kept as a decimal string (`"1234.50"`), never a float. */
export const MoneyWidget = memo(function MoneyWidget(props: EngineWidgetProps) {
  const { id, onChange, onBlur } = props;
  const commit = useCallback(
    (typed: string) => {
      const next = moneyText(typed);
      onChange(next === '' ? undefined : next);
    },
    [onChange],
  );
  const accept = useCallback((typed: string) => isMoneyInput(moneyText(typed)), []);
  const text = useLazyText<HTMLInputElement>(asText(props.value), commit, accept);
  const { flush } = text;
  const blur = useCallback(() => {
    const typed = moneyText(flush());
    // Completes "12." or "12.5" to two decimals on leaving the field.
    if (/^\d+\.\d?$/.test(typed)) {
      const [whole, cents = ''] = typed.split('.');
      const fixed = `${whole}.${cents.padEnd(2, '0')}`;
      onChange(fixed);
      onBlur(id, fixed);
    } else onBlur(id, typed === '' ? undefined : typed);
  }, [flush, onChange, onBlur, id]);
  return (
    <TextInput
      ref={text.ref}
      {...inputProps(props)}
      inputMode="decimal"
      leftSection="NZD"
      leftSectionWidth={48}
      disabled={props.disabled}
      // An amount the server fills (an invoice line's) reads at full contrast, in the tab order.
      readOnly={props.readonly}
      defaultValue={text.defaultValue}
      onChange={text.onChange}
      onBlur={blur}
    />
  );
});
