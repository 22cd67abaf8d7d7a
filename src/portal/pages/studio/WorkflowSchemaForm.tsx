import { useState } from 'react';
import {
  Autocomplete,
  Fieldset,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isNode, type Node } from '../../../core/definitions/json';

/**
 * A form for one part of a definition, generated from that part's meta-schema: every property
 * the shape declares gets a field by its kind (a yes/no, a choice of the schema's `enum`, a
 * number, a text, a list of texts), and what no plain field can hold (objects, lists of
 * objects, alternatives) is edited as JSON. A keyword added to the shapes shows here by itself.
 */
export interface SchemaFormProps {
  /** The part's meta-schema: an object schema with `properties`. */
  schema: unknown;
  value: Node;
  onChange: (value: Node) => void;
  /** Properties edited elsewhere (a status's transitions, the texts beside). */
  omit?: readonly string[];
  /** Names offered for a property (roles, guards, effects, sections): typing another is allowed. */
  suggestions?: Readonly<Record<string, readonly string[]>>;
  /** The fieldset's name, for screen readers and the eye. */
  legend: string;
}

/** The choices a schema allows, when it lists them (`enum`, or `anyOf`/`oneOf` of `const`s). */
function choicesOf(schema: Node): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  if (typeof schema.const === 'string') return [schema.const];
  const branches = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches)) return undefined;
  const values = branches.map((branch) =>
    isNode(branch) && (typeof branch.const === 'string' || Array.isArray(branch.enum))
      ? (choicesOf(branch) ?? [])
      : undefined,
  );
  return values.every((v) => v !== undefined) ? values.flat() : undefined;
}

type Kind = 'boolean' | 'choice' | 'choices' | 'number' | 'integer' | 'text' | 'texts' | 'json';

function kindOf(schema: Node): Kind {
  if (choicesOf(schema)) return 'choice';
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'integer') return 'integer';
  if (schema.type === 'number') return 'number';
  if (schema.type === 'string') return 'text';
  if (schema.type === 'array' && isNode(schema.items)) {
    if (choicesOf(schema.items)) return 'choices';
    if (schema.items.type === 'string') return 'texts';
  }
  return 'json';
}

/** Without the property when emptied: an optional keyword left out rather than set to "". */
function withValue(value: Node, name: string, next: unknown): Node {
  const copy = { ...value };
  const empty = next === undefined || next === '' || (Array.isArray(next) && next.length === 0);
  if (empty) delete copy[name];
  else copy[name] = next;
  return copy;
}

export function WorkflowSchemaForm(props: SchemaFormProps) {
  const schema = isNode(props.schema) ? props.schema : {};
  const properties = isNode(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const omitted = new Set(props.omit ?? []);
  const names = Object.keys(properties).filter((name) => !omitted.has(name) && name !== '$comment');
  return (
    <Fieldset legend={props.legend}>
      <Stack gap="xs">
        {names.map((name) => {
          const property = properties[name];
          return (
            <SchemaField
              key={name}
              name={name}
              schema={isNode(property) ? property : {}}
              required={required.has(name)}
              value={props.value[name]}
              suggestions={props.suggestions?.[name]}
              onChange={(next) => props.onChange(withValue(props.value, name, next))}
            />
          );
        })}
      </Stack>
    </Fieldset>
  );
}

interface FieldProps {
  name: string;
  schema: Node;
  required: boolean;
  value: unknown;
  suggestions?: readonly string[];
  onChange: (value: unknown) => void;
}

/**
 * A keyword's label and help in the reader's language (studio.keywords.<name>), the keyword
 * itself beside them so the JSON and the docs can be matched; a keyword with no texts yet shows
 * by its name (tests/unit/studio-keyword-texts.test.ts asks for texts for every one).
 */
function useKeywordTexts(name: string, schema: Node) {
  const { t, i18n } = useTranslation();
  const key = `studio.keywords.${name}`;
  if (!i18n.exists(`${key}.label`))
    return {
      label: name,
      description: typeof schema.description === 'string' ? schema.description : undefined,
    };
  return { label: t(`${key}.label`), description: `${t(`${key}.help`)} (${name})` };
}

function SchemaField({ name, schema, required, value, suggestions, onChange }: FieldProps) {
  const { t } = useTranslation();
  const common = { ...useKeywordTexts(name, schema), required };
  switch (kindOf(schema)) {
    case 'boolean':
      return (
        <Switch
          {...common}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked ? true : undefined)}
        />
      );
    case 'choice':
      return (
        <Select
          {...common}
          data={choicesOf(schema) ?? []}
          value={typeof value === 'string' ? value : null}
          onChange={(next) => onChange(next ?? undefined)}
          clearable={!required}
          placeholder={t('studio.workflow.form.none')}
        />
      );
    case 'choices':
      return (
        <MultiSelect
          {...common}
          data={choicesOf(schema.items as Node) ?? []}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={onChange}
        />
      );
    case 'integer':
    case 'number':
      return (
        <NumberInput
          {...common}
          allowDecimal={schema.type === 'number'}
          value={typeof value === 'number' ? value : ''}
          onChange={(next) => onChange(typeof next === 'number' ? next : undefined)}
        />
      );
    case 'text':
      return suggestions ? (
        <Autocomplete
          {...common}
          data={[...new Set(suggestions)]}
          value={typeof value === 'string' ? value : ''}
          onChange={onChange}
        />
      ) : (
        <TextInput
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    case 'texts':
      return (
        <TagsInput
          {...common}
          data={[...new Set(suggestions ?? [])]}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={onChange}
          description={common.description ?? t('studio.workflow.form.tags')}
        />
      );
    case 'json':
      return <JsonField {...common} value={value} onChange={onChange} />;
  }
}

/** A value no plain field holds, as JSON: applied when it parses, said when it does not. */
function JsonField(props: {
  label: string;
  /** What the keyword is, said before how to write it. */
  description?: string;
  required: boolean;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const { t } = useTranslation();
  const shownText = props.value === undefined ? '' : JSON.stringify(props.value, null, 2);
  const [text, setText] = useState(shownText);
  const [shown, setShown] = useState(shownText);
  const [error, setError] = useState<string | undefined>();
  if (shown !== shownText && text === shown) {
    setShown(shownText);
    setText(shownText);
  }
  const apply = () => {
    if (text === shown) return;
    if (text.trim() === '') {
      setError(undefined);
      setShown('');
      return props.onChange(undefined);
    }
    try {
      const parsed: unknown = JSON.parse(text);
      setError(undefined);
      setShown(text);
      props.onChange(parsed);
    } catch (failure) {
      setError(t('studio.workflow.form.invalidJson', { message: (failure as Error).message }));
    }
  };
  return (
    <Textarea
      label={props.label}
      required={props.required}
      description={[props.description, t('studio.workflow.form.json')].filter(Boolean).join(' ')}
      autosize
      minRows={1}
      maxRows={10}
      spellCheck={false}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
      value={text}
      error={error}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={apply}
    />
  );
}
