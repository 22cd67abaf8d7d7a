import { cloneElement, memo, useCallback, type ReactElement } from 'react';
import { Text } from '@mantine/core';
import { withTheme, type IChangeEvent } from '@rjsf/core';
import { Templates as MantineTemplates, Theme as MantineTheme } from '@rjsf/mantine';
import {
  englishStringTranslator,
  getUiOptions,
  getWidget,
  TranslatableString,
  type ErrorSchema,
  type FieldErrorProps,
  type FieldProps,
  type ObjectFieldTemplatePropertyType,
  type ObjectFieldTemplateProps,
  type RJSFSchema,
  type UiSchema,
  type ValidatorType,
} from '@rjsf/utils';
import { translate, type Language } from '../../core/i18n/translate';
import { localizedText } from '../../core/i18n/localized';
import { contextOf, t, type EngineFormContext } from './context';
import { useFirstPaintSlice } from './firstPaint';
import {
  ArrayFieldItemButtonsTemplate,
  ArrayFieldItemTemplate,
  ArrayFieldTemplate,
} from './listTemplates';
import { useWidgets } from './widgets';
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

/** Errors of lists and groups (minItems, allAnswered); the Mantine widgets show their own. */
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

const ThemeObjectFieldTemplate = MantineTemplates.ObjectFieldTemplate!;

/** A group's fields in its first render, about a screen's worth (docs/performance.md). */
const FIRST_PAINT_FIELDS = 8;

/** A property's non-empty text, in the reader's language when copied with its translations. */
function textAt(data: unknown, field: unknown, language: Language): string | undefined {
  if (typeof field !== 'string') return undefined;
  const value = localizedText(data, field, language);
  return value !== undefined && value !== '' ? value : undefined;
}

/**
 * A property relabelled as its uiSchema asks (docs/forms.md, "Lists the server fills"): label
 * from a sibling's value (`labelFrom`), required from a sibling's flag (`requiredFrom`) or always.
 */
function relabelled(
  element: ObjectFieldTemplatePropertyType,
  data: unknown,
  props: ObjectFieldTemplateProps<unknown, RJSFSchema, EngineFormContext>,
): ObjectFieldTemplatePropertyType {
  const content = element.content as ReactElement<{ uiSchema?: UiSchema; required?: boolean }>;
  const ui = content.props.uiSchema;
  const options = getUiOptions(ui);
  const { labelFrom, requiredFrom } = options;
  if (labelFrom === undefined && requiredFrom === undefined && options.required !== true)
    return element;
  const context = contextOf(props.registry.formContext);
  const label = textAt(data, labelFrom, context.language);
  const flagged = typeof requiredFrom === 'string' && typeof data === 'object' && data !== null;
  const mandatory = flagged && (data as Record<string, unknown>)[requiredFrom] === true;
  const help = typeof ui?.['ui:description'] === 'string' ? ui['ui:description'] : undefined;
  const word = flagged ? t(context, mandatory ? 'form.mandatory' : 'form.optional') : undefined;
  const uiSchema: UiSchema = {
    ...ui,
    ...(label !== undefined && { 'ui:title': label }),
    ...(word !== undefined && { 'ui:description': help ? `${word}. ${help}` : word }),
  };
  const required = Boolean(content.props.required) || options.required === true || mandatory;
  return { ...element, content: cloneElement(content, { uiSchema, required }) };
}

/**
 * `ui:options.groupLabelFrom` names the object as a group from one of its fields: a screen reader
 * entering a Yes/No answer hears its question first. Fields that do not apply (`when`) are left out.
 */
function ObjectFieldTemplate(
  props: ObjectFieldTemplateProps<unknown, RJSFSchema, EngineFormContext>,
) {
  const data = props.formData;
  const language = contextOf(props.registry.formContext).language;
  const name = textAt(data, getUiOptions(props.uiSchema).groupLabelFrom, language);
  const { fieldApplies } = contextOf(props.registry.formContext);
  const at = props.fieldPathId.path.map(String).join('/');
  const applying = props.properties.filter((element) => fieldApplies(`/${at}/${element.name}`));
  const shown = useFirstPaintSlice(applying, FIRST_PAINT_FIELDS);
  const properties = shown.map((element) => relabelled(element, data, props));
  const inner = <ThemeObjectFieldTemplate {...props} properties={properties} />;
  return name !== undefined ? (
    <div role="group" aria-label={name} className="engine-labelled-group">
      {inner}
    </div>
  ) : (
    inner
  );
}

const FIELDS = { engineWidget: WidgetField };
const TEMPLATES = {
  FieldErrorTemplate,
  ObjectFieldTemplate,
  ArrayFieldTemplate,
  ArrayFieldItemTemplate,
  ArrayFieldItemButtonsTemplate,
};

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

/** One section as an RJSF form: its schema only, no built-in validation (the engine's). */
export const SectionEditor = memo(function SectionEditor(props: SectionEditorProps) {
  const { sectionId, onSectionChange, onTouch, formContext } = props;
  const change = useCallback(
    (event: IChangeEvent<unknown, RJSFSchema, EngineFormContext>) => {
      const data = (event.formData ?? {}) as Record<string, unknown>;
      onSectionChange(sectionId, data[sectionId]);
    },
    [onSectionChange, sectionId],
  );
  // The parent's data as it is, echo included: keeping the previous prop on an echo lost answers.
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
  const widgets = useWidgets();
  return (
    <ThemedForm
      tagName="div"
      className="rjsf engine-form"
      schema={props.schema}
      uiSchema={props.uiSchema}
      validator={props.validator}
      formData={props.formData}
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
