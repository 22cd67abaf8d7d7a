import { Checkbox, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import type { ChangeEvent, ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../core/api/client';
import { enumerationLabel } from '../core/definitions/enumerations';
import { currencyOf, fieldKind, translatableFieldsOf } from '../core/definitions/catalog-entry';
import {
  referencedCatalog,
  type CatalogDefinition,
  type JsonSchema,
} from '../core/definitions/types';
import { TRANSLATED_LANGUAGES, TRANSLATIONS_FIELD } from '../core/i18n/localized';
import { DEFAULT_LANGUAGE, type Language, type TextTree } from '../core/i18n/translate';
import { languageLabel, shownCatalogFields } from './catalog-fields';
import { DateTimeField } from './DateTimeField';
import { chooseWidget, rankWith, type FieldKind } from './form/fieldKinds';
import { localInputToIso } from './format';
import { useReferenceName } from './useReferenceName';

/**
 * The fields of a catalogue entry's form, as its schema and the catalogue declare them: the
 * values an enumerated field allows (a check type, 1 or 2...), and whether a text is given in
 * every language (`translatable`: one input per language).
 */
export function entryFormFields(catalog: CatalogDefinition, language: Language) {
  const properties = (catalog.schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(catalog.schema.required) ? catalog.schema.required : [];
  const labels = catalog.labels[language]?.fields ?? {};
  const translatable = translatableFieldsOf(catalog);
  return shownCatalogFields(catalog).map((name) => {
    const property = properties[name] ?? {};
    const currency = currencyOf(catalog, name);
    return {
      name,
      label: labels[name] ?? name,
      kind: fieldKind(property),
      required: required.includes(name),
      ...(Array.isArray(property.enum) ? { options: property.enum.map(String) } : {}),
      translatable: translatable.includes(name),
      ...(currency !== undefined && { currency }),
      ...(catalog.references?.[name] && { reference: catalog.references[name] }),
    };
  });
}

export type EntryFormField = ReturnType<typeof entryFormFields>[number];

export type EntryValue = string | number | boolean;

/** What every entry widget is given: its field, the form's values and errors, and its services. */
export interface EntryWidgetProps {
  field: EntryFormField;
  values: Readonly<Record<string, EntryValue>>;
  errors: Readonly<Record<string, string>>;
  set: (name: string, value: EntryValue) => void;
  catalog: CatalogDefinition;
  allCatalogs?: CatalogDefinition[];
  api: ApiClient;
  backend: string;
  language: Language;
  translations: Partial<Record<Language, TextTree>>;
}

/** The key of one other language's input of a translatable field in the form's values. */
export function translationInput(field: string, language: Language): string {
  return `${TRANSLATIONS_FIELD}.${language}.${field}`;
}

const text = (value: EntryValue | undefined) => String(value ?? '');

/** A text input's value, change and error, for the field's own value or one of its translations. */
const textInput = ({ values, errors, set }: EntryWidgetProps, name: string) => ({
  value: text(values[name]),
  onChange: (event: ChangeEvent<HTMLInputElement>) => set(name, event.currentTarget.value),
  error: errors[name],
});

function CheckboxWidget({ field, values, errors, set }: EntryWidgetProps) {
  return (
    <Checkbox
      label={field.label}
      checked={values[field.name] === true}
      onChange={(event) => set(field.name, event.currentTarget.checked)}
      error={errors[field.name]}
    />
  );
}

function NumberWidget({ field, values, errors, set }: EntryWidgetProps) {
  const value = values[field.name];
  return (
    <NumberInput
      label={field.label}
      withAsterisk={field.required}
      value={typeof value === 'boolean' ? '' : value}
      onChange={(v) => set(field.name, v)}
      error={errors[field.name]}
      // An amount is typed to the cent, its currency beside it.
      {...(field.currency !== undefined && {
        decimalScale: 2,
        rightSection: (
          <Text size="xs" c="dimmed" aria-hidden>
            {field.currency}
          </Text>
        ),
        rightSectionWidth: 48,
        rightSectionPointerEvents: 'none' as const,
      })}
    />
  );
}

function SelectWidget({ field, values, errors, set, translations, language }: EntryWidgetProps) {
  const options = field.options ?? [];
  const value = values[field.name];
  return (
    <Select
      label={field.label}
      withAsterisk={field.required}
      clearable={!field.required}
      data={options.map((option) => ({
        value: option,
        label: enumerationLabel(translations, language, options, option) ?? option,
      }))}
      value={value === '' || value === undefined ? null : String(value)}
      onChange={(next) => set(field.name, next ?? '')}
      error={errors[field.name]}
    />
  );
}

/** A reference field: the code typed, and the name of the entry it names next to it. */
function ReferenceWidget(props: EntryWidgetProps) {
  const { field, values } = props;
  const { t } = useTranslation();
  const value = text(values[field.name]);
  const reference = field.reference;
  const target =
    reference && props.allCatalogs?.find((c) => c.id === referencedCatalog(reference, values));
  const at = localInputToIso(text(values.startTime));
  const name = useReferenceName(props.api, props.backend, target, value, at, props.language);
  return (
    <TextInput
      label={field.label}
      withAsterisk={field.required}
      {...textInput(props, field.name)}
      description={
        value.trim() === '' ? undefined : name !== undefined ? name : t('catalog.referenceUnknown')
      }
    />
  );
}

function DateWidget({ field, values, errors, set }: EntryWidgetProps) {
  return (
    <DateTimeField
      label={field.label}
      withTime={field.kind === 'datetime'}
      required={field.required}
      value={text(values[field.name])}
      onChange={(next) => set(field.name, next)}
      error={errors[field.name]}
    />
  );
}

/** One input per language: English required as the field is, the others optional. */
function TranslatableWidget(props: EntryWidgetProps) {
  const { field } = props;
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <TextInput
        label={languageLabel(t, field.label, DEFAULT_LANGUAGE)}
        lang={DEFAULT_LANGUAGE}
        withAsterisk={field.required}
        {...textInput(props, field.name)}
      />
      {TRANSLATED_LANGUAGES.map((code) => (
        <TextInput
          key={code}
          label={languageLabel(t, field.label, code)}
          lang={code}
          {...textInput(props, translationInput(field.name, code))}
        />
      ))}
    </Stack>
  );
}

function TextWidget(props: EntryWidgetProps) {
  const { field } = props;
  return (
    <TextInput
      label={field.label}
      withAsterisk={field.required}
      {...textInput(props, field.name)}
    />
  );
}

type EntryKind = FieldKind<EntryFormField, ComponentType<EntryWidgetProps>>;

/** The entry form's field kinds, ranked; plain text fits everything, last. */
export const ENTRY_FIELD_KINDS: readonly EntryKind[] = [
  { tester: rankWith(7, (f) => f.kind === 'boolean'), widget: CheckboxWidget },
  { tester: rankWith(6, (f) => f.kind === 'number'), widget: NumberWidget },
  { tester: rankWith(5, (f) => f.options !== undefined), widget: SelectWidget },
  { tester: rankWith(4, (f) => f.reference !== undefined), widget: ReferenceWidget },
  { tester: rankWith(3, (f) => f.kind === 'date' || f.kind === 'datetime'), widget: DateWidget },
  { tester: rankWith(2, (f) => f.translatable), widget: TranslatableWidget },
  { tester: rankWith(0, () => true), widget: TextWidget },
];

/** A field of the entry drawn by the kind that fits it best. */
export function EntryField(props: EntryWidgetProps) {
  const Widget = chooseWidget(ENTRY_FIELD_KINDS, props.field) ?? TextWidget;
  return <Widget {...props} />;
}
