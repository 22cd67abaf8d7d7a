import { memo, useCallback, useMemo, useRef } from 'react';
import { Text } from '@mantine/core';
import { withTheme, type IChangeEvent } from '@rjsf/core';
import { Theme as MantineTheme } from '@rjsf/mantine';
import {
  englishStringTranslator,
  getUiOptions,
  getWidget,
  TranslatableString,
  type ErrorSchema,
  type FieldErrorProps,
  type FieldProps,
  type RJSFSchema,
  type UiSchema,
  type ValidatorType,
} from '@rjsf/utils';
import { translate } from '../../core/i18n/translate';
import type { EngineFormContext } from './context';
import { engineWidgets } from './widgets';
import './form.css';

const ThemedForm = withTheme<unknown, RJSFSchema, EngineFormContext>(MantineTheme);

/** Renders an object-valued schema (a file's MediaReference) with a registered engine widget. */
function WidgetField(props: FieldProps<unknown, RJSFSchema, EngineFormContext>) {
  const { schema, uiSchema, registry, fieldPathId, onChange, formData, name } = props;
  const { widget, title, ...options } = getUiOptions(uiSchema);
  const Widget = getWidget<unknown, RJSFSchema, EngineFormContext>(
    schema,
    typeof widget === 'string' ? widget : 'text',
    registry.widgets,
  );
  const change = useCallback(
    (value: unknown) => onChange(value, fieldPathId.path),
    [onChange, fieldPathId],
  );
  return (
    <Widget
      id={fieldPathId.$id}
      name={name}
      label={title ?? name}
      schema={schema}
      uiSchema={uiSchema}
      options={options}
      value={formData}
      onChange={change}
      onBlur={props.onBlur}
      onFocus={props.onFocus}
      required={props.required}
      disabled={props.disabled}
      readonly={props.readonly}
      registry={registry}
      rawErrors={props.rawErrors}
      htmlName={fieldPathId.name}
    />
  );
}

/**
 * Errors of lists and groups (minItems, allAnswered, a missing section); the Mantine widgets
 * show their own field's errors.
 */
function FieldErrorTemplate(props: FieldErrorProps<unknown, RJSFSchema, EngineFormContext>) {
  const errors = (props.errors ?? []).filter((e): e is string => typeof e === 'string');
  const type = props.schema.type;
  const group = type === 'object' || type === 'array';
  if (errors.length === 0 || !group || props.uiSchema?.['ui:field'] === 'engineWidget') return null;
  return (
    <Text c="red" size="sm" role="alert" data-testid={`errors-${props.fieldPathId.$id}`}>
      {errors.join(' ')}
    </Text>
  );
}

const FIELDS = { engineWidget: WidgetField };
const TEMPLATES = { FieldErrorTemplate };

const STRING_KEYS: Partial<Record<TranslatableString, string>> = {
  [TranslatableString.AddItemButton]: 'form.add',
  [TranslatableString.AddButton]: 'form.add',
  [TranslatableString.RemoveButton]: 'form.remove',
  [TranslatableString.MoveUpButton]: 'form.moveUp',
  [TranslatableString.MoveDownButton]: 'form.moveDown',
  [TranslatableString.CopyButton]: 'form.copy',
  [TranslatableString.EmptyArray]: 'form.emptyList',
  [TranslatableString.YesLabel]: 'form.yes',
  [TranslatableString.NoLabel]: 'form.no',
};

export interface SectionEditorProps {
  sectionId: string;
  schema: RJSFSchema;
  uiSchema: UiSchema;
  validator: ValidatorType<unknown, RJSFSchema, EngineFormContext>;
  formData: Record<string, unknown>;
  errorSchema: ErrorSchema;
  formContext: EngineFormContext;
  onSectionChange: (sectionId: string, value: unknown) => void;
  onTouch: (pointer: string) => void;
}

/**
 * The `formData` to hand RJSF. A parent's echo of what the form reported itself, with nothing
 * else changed, keeps the previous prop: RJSF's state holds that data already, and a new prop
 * would make it derive its whole state again and render a second time on every keystroke. Any
 * other change (data from outside, new errors, another section) passes the current data.
 */
function useEcho(props: SectionEditorProps, reported: { value: unknown } | undefined) {
  const others = [
    props.sectionId,
    props.schema,
    props.uiSchema,
    props.validator,
    props.errorSchema,
    props.formContext,
  ];
  const passed = useRef<{ formData: Record<string, unknown>; others: unknown[] } | undefined>(
    undefined,
  );
  const previous = passed.current;
  const echo =
    previous !== undefined &&
    reported !== undefined &&
    props.formData[props.sectionId] === reported.value &&
    others.every((value, index) => value === previous.others[index]);
  const formData = echo ? previous.formData : props.formData;
  passed.current = { formData, others };
  return formData;
}

/** One section as an RJSF form: its schema only, no built-in validation (the engine's). */
export const SectionEditor = memo(function SectionEditor(props: SectionEditorProps) {
  const { sectionId, onSectionChange, onTouch, formContext } = props;
  // What the form reported last: the parent hands it back as `formData` on each keystroke.
  const reported = useRef<{ value: unknown } | undefined>(undefined);
  const change = useCallback(
    (event: IChangeEvent<unknown, RJSFSchema, EngineFormContext>) => {
      const data = (event.formData ?? {}) as Record<string, unknown>;
      reported.current = { value: data[sectionId] };
      onSectionChange(sectionId, data[sectionId]);
    },
    [onSectionChange, sectionId],
  );
  const formData = useEcho(props, reported.current);
  const blur = useCallback(
    (id: string) => onTouch(`/${id.split('.').slice(1).join('/')}`),
    [onTouch],
  );
  const { texts, language } = formContext;
  const translateString = useCallback(
    (text: TranslatableString, params?: string[]) => {
      const key = STRING_KEYS[text];
      return key ? translate(texts, language, key) : englishStringTranslator(text, params);
    },
    [texts, language],
  );
  const widgets = useMemo(() => engineWidgets(), []);
  return (
    <ThemedForm
      tagName="div"
      className="rjsf engine-form"
      schema={props.schema}
      uiSchema={props.uiSchema}
      validator={props.validator}
      formData={formData}
      formContext={formContext}
      widgets={widgets}
      fields={FIELDS}
      templates={TEMPLATES}
      translateString={translateString}
      extraErrors={props.errorSchema}
      noValidate
      showErrorList={false}
      idPrefix="root"
      idSeparator="."
      onChange={change}
      onBlur={blur}
    />
  );
});
