import { useState } from 'react';
import { Button, Group, NumberInput, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  criteriaFor,
  valueArity,
  type FieldKind,
  type FilterCriterion,
} from '../core/search/criteria';
import type { FilterCondition } from '../core/search/protocol';
import { DateTimeField } from './DateTimeField';
import { localInputToIso } from './format';

export interface FilterField {
  name: string;
  label: string;
  kind: FieldKind;
}

export interface FilterBarProps {
  fields: FilterField[];
  /** Called with the condition to apply, or with no condition when the filter is cleared. */
  onApply: (condition: FilterCondition | undefined) => void;
}

type RawValue = string | number;

/** One filter condition: a field, a criterion fitting its kind, and the value(s) it needs. */
export function FilterBar({ fields, onApply }: FilterBarProps) {
  const { t } = useTranslation();
  const [fieldName, setFieldName] = useState<string>(fields[0]?.name ?? '');
  const field = fields.find((f) => f.name === fieldName) ?? fields[0];
  const kind: FieldKind = field?.kind ?? 'text';
  const criteria = criteriaFor(kind);
  const [criterion, setCriterion] = useState<FilterCriterion>(criteria[0] ?? 'equals');
  const [value, setValue] = useState<RawValue>('');
  const [valueTo, setValueTo] = useState<RawValue>('');
  const arity = valueArity(criterion);

  /** A field chosen afresh, no value: `keep` stays its criterion when it fits, else its first. */
  const select = (name: string, keep?: FilterCriterion) => {
    const allowed = criteriaFor(fields.find((f) => f.name === name)?.kind ?? 'text');
    setFieldName(name);
    setCriterion(keep && allowed.includes(keep) ? keep : (allowed[0] ?? 'equals'));
    setValue('');
    setValueTo('');
  };

  const convert = (raw: RawValue): FilterCondition['value'] => {
    if (kind === 'number') return raw === '' ? null : Number(raw);
    if (kind === 'boolean') return raw === 'true';
    if (kind === 'datetime') return localInputToIso(String(raw)) ?? null;
    return String(raw);
  };

  const apply = () => {
    if (!field) return;
    const condition: FilterCondition = { field: field.name, criterion };
    if (arity >= 1) condition.value = convert(value);
    if (arity === 2) condition.valueTo = convert(valueTo);
    onApply(condition);
  };

  const clear = () => {
    select(fields[0]?.name ?? '');
    onApply(undefined);
  };

  const valueInput = (label: string, current: RawValue, set: (v: RawValue) => void) => {
    if (kind === 'number')
      return <NumberInput label={label} value={current} onChange={(v) => set(v)} w={160} />;
    if (kind === 'boolean')
      return (
        <Select
          label={label}
          value={current === '' ? null : String(current)}
          onChange={(v) => set(v ?? '')}
          data={[
            { value: 'true', label: t('catalog.yes') },
            { value: 'false', label: t('catalog.no') },
          ]}
          w={140}
        />
      );
    if (kind === 'datetime' || kind === 'date')
      return (
        <DateTimeField
          label={label}
          withTime={kind === 'datetime'}
          value={String(current)}
          onChange={set}
          onEnter={apply}
          // A date and its time control side by side, the calendar opening under the date.
          w={kind === 'datetime' ? 300 : 200}
        />
      );
    return (
      <TextInput
        label={label}
        value={String(current)}
        onChange={(event) => set(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply();
        }}
        w={200}
      />
    );
  };

  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <Select
        label={t('catalog.filterField')}
        data={fields.map((f) => ({ value: f.name, label: f.label }))}
        value={field?.name ?? null}
        onChange={(name) => name && select(name, criterion)}
        allowDeselect={false}
        w={180}
      />
      <Select
        label={t('catalog.criterion')}
        data={criteria.map((c) => ({ value: c, label: t(`catalog.criteria.${c}`) }))}
        value={criterion}
        onChange={(v) => v && setCriterion(v as FilterCriterion)}
        allowDeselect={false}
        w={220}
      />
      {arity >= 1 && valueInput(t('catalog.value'), value, setValue)}
      {arity === 2 && valueInput(t('catalog.valueTo'), valueTo, setValueTo)}
      <Button onClick={apply}>{t('catalog.apply')}</Button>
      <Button variant="default" onClick={clear}>
        {t('catalog.clear')}
      </Button>
    </Group>
  );
}
