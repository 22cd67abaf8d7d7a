import type { ComponentType } from 'react';
import { Stack, Textarea, TextInput } from '@mantine/core';
import type { JsonSchema } from '../../core/definitions/types';
import type { Language } from '../../core/i18n/translate';
import { resolvePointer } from '../../core/rules/registry';
import { chooseWidget, rankWith, type FieldKind } from './fieldKinds';
import { asObject, fieldHelp, fieldLabel, schemaType, type Texts } from './texts';
import type { FormServices } from './types';
import { FileInput } from './widgets/FileWidget';

/** One field as SchemaFields draws it. */
interface FieldProps {
  id: string;
  schema: JsonSchema;
  label: string;
  help?: string;
  required: boolean;
  value: unknown;
  error?: string;
  onChange: (value: unknown) => void;
  autoFocus: boolean;
  texts: Texts;
  language: Language;
  services: FormServices;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** A text on one line, or several (`multiline`): a letter's worth opens on five lines. */
function TextField({ multiline = false, ...props }: FieldProps & { multiline?: boolean }) {
  const long = Number(props.schema.maxLength ?? 0) >= 4000;
  const shared = {
    id: props.id,
    label: props.label,
    description: props.help,
    required: props.required,
    value: text(props.value),
    error: props.error,
    'data-autofocus': props.autoFocus || undefined,
    onChange: (event: { currentTarget: { value: string } }) =>
      props.onChange(event.currentTarget.value),
  };
  return multiline ? (
    <Textarea {...shared} autosize minRows={long ? 5 : 2} maxRows={long ? 14 : undefined} />
  ) : (
    <TextInput {...shared} />
  );
}

/** A file, checked before it is uploaded against the types and size its schema allows. */
function FileField(props: FieldProps) {
  const types = resolvePointer(props.schema, '/properties/type/enum');
  const maximum = resolvePointer(props.schema, '/properties/size/maximum');
  return (
    <FileInput
      {...props}
      accept={
        Array.isArray(types) ? types.filter((v) => typeof v === 'string').join(',') : undefined
      }
      maxSize={typeof maximum === 'number' ? maximum : undefined}
    />
  );
}

type Kind = FieldKind<{ schema: JsonSchema; ui: JsonSchema }, ComponentType<FieldProps>>;

/** The kinds a schema-drawn dialog knows (registered pairs: engine/form/fieldKinds.ts). */
const KINDS: readonly Kind[] = [
  { tester: rankWith(2, ({ ui }) => ui['ui:widget'] === 'file'), widget: FileField },
  {
    tester: rankWith(1, ({ ui }) => ui['ui:widget'] === 'textarea'),
    widget: (props: FieldProps) => <TextField {...props} multiline />,
  },
  { tester: rankWith(0, ({ schema }) => schemaType(schema) === 'string'), widget: TextField },
];

export interface SchemaFieldsProps {
  /** The entity whose texts name the fields (`<entity>.<path>.<field>`). */
  entityId: string;
  /** An object schema (a section of the entity) and its uiSchema: fields in `ui:order`. */
  schema: JsonSchema;
  ui: JsonSchema | undefined;
  /** The text path of the object (`message`). */
  path: string;
  values: Readonly<Record<string, unknown>>;
  errors: Readonly<Record<string, string>>;
  onChange: (name: string, value: unknown) => void;
  /** The id of each field's input (what a problem's summary focuses). */
  idOf: (name: string) => string;
  texts: Texts;
  language: Language;
  services: FormServices;
}

/** The fields of an object, in its uiSchema's order. */
export function fieldsOf(schema: JsonSchema, ui: JsonSchema | undefined): string[] {
  const names = Object.keys(asObject(schema.properties) ?? {});
  const order = Array.isArray(ui?.['ui:order']) ? (ui['ui:order'] as string[]) : [];
  return [
    ...order.filter((name) => names.includes(name)),
    ...names.filter((n) => !order.includes(n)),
  ];
}

/** An object's fields drawn from its schema outside a document (a dialog); the first focused. */
export function SchemaFields(props: SchemaFieldsProps) {
  const properties = asObject(props.schema.properties) ?? {};
  const required = Array.isArray(props.schema.required) ? props.schema.required : [];
  return (
    <Stack gap="sm">
      {fieldsOf(props.schema, props.ui).map((name, index) => {
        const schema = asObject(properties[name]) ?? {};
        const ui = asObject(props.ui?.[name]) ?? {};
        const Widget = chooseWidget(KINDS, { schema, ui });
        if (!Widget) return null;
        const path = `${props.path}.${name}`;
        return (
          <Widget
            key={name}
            id={props.idOf(name)}
            schema={schema}
            label={fieldLabel(props.texts, props.language, props.entityId, path)}
            help={fieldHelp(props.texts, props.language, props.entityId, path)}
            required={required.includes(name)}
            value={props.values[name]}
            error={props.errors[name]}
            onChange={(value) => props.onChange(name, value)}
            autoFocus={index === 0}
            texts={props.texts}
            language={props.language}
            services={props.services}
          />
        );
      })}
    </Stack>
  );
}
