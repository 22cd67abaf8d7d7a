import { Group, MultiSelect, Select, TagsInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Node } from '../../../core/definitions/json';
import {
  CONDITION_OPERATORS,
  type ConditionOperator,
  type DecidingField,
  type FieldCondition,
} from '../../../core/studio/schema-design';

/** The values a deciding field can hold, when it says them: an enumeration's, yes and no. */
function knownValues(
  field: DecidingField | undefined,
  name: (value: string) => string,
  yesNo: [string, string],
) {
  if (!field) return undefined;
  if (field.schema.type === 'boolean')
    return [
      { value: 'true', label: yesNo[0] },
      { value: 'false', label: yesNo[1] },
    ];
  const values = field.schema.enum;
  if (!Array.isArray(values)) return undefined;
  return values.map(String).map((value) => ({ value, label: `${name(value)} (${value})` }));
}

/**
 * A condition designed with choices: the deciding field, how it is compared and its value(s),
 * chosen among the field's own values when it has them (an enumeration, yes or no).
 */
export function FieldConditionInputs(props: {
  /** Names the group for screen readers ("Required when", "Shown when"). */
  legend: string;
  fields: DecidingField[];
  /** A field's label for the choices. */
  fieldLabel: (field: DecidingField) => string;
  /** An enumeration value's name in the texts. */
  valueLabel: (field: DecidingField, value: string) => string;
  condition: FieldCondition | undefined;
  onChange: (condition: FieldCondition | undefined) => void;
  /** The operators offered (a section is shown for values, never for any value). */
  operators?: readonly ConditionOperator[];
  /** What holds without a condition ("Never (optional)", "Always"). */
  placeholder: string;
}) {
  const { t } = useTranslation();
  const operators = props.operators ?? CONDITION_OPERATORS;
  const condition = props.condition;
  const field = props.fields.find(
    (f) => f.pointer === condition?.field || f.name === condition?.field,
  );
  const set = (change: Partial<FieldCondition>) =>
    props.onChange({
      field: condition?.field ?? '',
      operator: condition?.operator ?? operators[0] ?? 'equals',
      values: condition?.values ?? [],
      ...change,
    });
  const known = knownValues(field, (value) => (field ? props.valueLabel(field, value) : value), [
    t('studio.form.yes'),
    t('studio.form.no'),
  ]);
  const values = condition?.values ?? [];
  return (
    <Group role="group" aria-label={props.legend} align="flex-end" gap="xs" wrap="wrap">
      <Select
        label={props.legend}
        placeholder={props.placeholder}
        data={props.fields.map((f) => ({ value: f.pointer, label: props.fieldLabel(f) }))}
        value={field?.pointer ?? null}
        searchable
        clearable
        onChange={(value) => {
          if (!value) return props.onChange(undefined);
          set({ field: value, values: [] });
        }}
        miw={220}
      />
      {condition && (
        <Select
          label={t('studio.form.operator')}
          data={operators.map((operator) => ({
            value: operator,
            label: t(`studio.form.operators.${operator}`),
          }))}
          value={condition.operator}
          allowDeselect={false}
          onChange={(value) => value && set({ operator: value as ConditionOperator, values: [] })}
          w={170}
        />
      )}
      {condition?.operator === 'equals' &&
        (known ? (
          <Select
            label={t('studio.form.conditionValue')}
            data={known}
            value={values[0] ?? null}
            onChange={(value) => set({ values: value ? [value] : [] })}
            miw={180}
          />
        ) : (
          <TextInput
            label={t('studio.form.conditionValue')}
            value={values[0] ?? ''}
            onChange={(event) => set({ values: [event.currentTarget.value] })}
          />
        ))}
      {condition?.operator === 'oneOf' &&
        (known ? (
          <MultiSelect
            label={t('studio.form.conditionValues')}
            data={known}
            value={values}
            onChange={(chosen) => set({ values: chosen })}
            miw={220}
          />
        ) : (
          <TagsInput
            label={t('studio.form.conditionValues')}
            description={t('studio.form.conditionValuesHelp')}
            value={values}
            onChange={(chosen) => set({ values: chosen })}
            miw={220}
          />
        ))}
    </Group>
  );
}

/** A deciding field's label from the entity's English texts, with its place. */
export function decidingLabel(texts: Node, field: DecidingField): string {
  const names = field.pointer.split('/').slice(1);
  let node: unknown = texts;
  for (const name of names) node = (node as Node | undefined)?.[name];
  const text =
    typeof node === 'string'
      ? node
      : typeof (node as Node | undefined)?._ === 'string'
        ? String((node as Node)._)
        : field.name;
  return `${text} (${names.join('/')})`;
}

/** An enumeration value's name in the entity's English texts (`<path>.enum.<value>`). */
export function enumLabel(texts: Node, field: DecidingField, value: string): string {
  let node: unknown = texts;
  for (const name of field.pointer.split('/').slice(1)) node = (node as Node | undefined)?.[name];
  const names = (node as Node | undefined)?.enum as Node | undefined;
  return typeof names?.[value] === 'string' ? String(names[value]) : value;
}
