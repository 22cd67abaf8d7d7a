import { memo, useMemo } from 'react';
import {
  MultiSelect,
  Select,
  Stack,
  Text,
  type ComboboxItem,
  type OptionsFilter,
} from '@mantine/core';
import { contextOf, t } from '../context';
import type { CatalogOption } from '../types';
import { CLOSED_LIST } from '../closedList';
import { useAnswer } from '../../useAnswer';
import { inputProps, type EngineWidgetProps } from './common';

/**
 * A choice among existing documents of another type (`ui:widget: documentChoices`): a
 * multi-select for an array field, else a select; each option its code with its label below.
 */
export const DocumentChoicesWidget = memo(function DocumentChoicesWidget(props: EngineWidgetProps) {
  const { id, value, onChange, onBlur, options, schema } = props;
  const context = contextOf(props.registry.formContext);
  const { services } = context;
  const document = typeof options.document === 'string' ? options.document : '';
  const many = schema.type === 'array';
  const load = services.documentChoices;
  const choices: CatalogOption[] | null =
    useAnswer(load && document ? () => load(document).catch(() => []) : undefined, [
      load,
      document,
    ]) ?? null;

  const selected = useMemo(
    () =>
      (many ? (Array.isArray(value) ? value : []) : [value]).filter(
        (v): v is string => typeof v === 'string' && v !== '',
      ),
    [many, value],
  );
  const names = useMemo(() => new Map((choices ?? []).map((c) => [c.code, c.name])), [choices]);
  // A stored code that names nothing any more stays visible (and removable), with its error.
  const data = useMemo(
    () => [
      ...(choices ?? []).map((c) => c.code),
      ...selected.filter((code) => choices !== null && !names.has(code)),
    ],
    [choices, names, selected],
  );
  const filter: OptionsFilter = ({ options: all, search }) => {
    const text = search.trim().toLowerCase();
    if (!text) return all;
    return (all as ComboboxItem[]).filter(
      (o) =>
        o.value.toLowerCase().includes(text) ||
        (names.get(o.value) ?? '').toLowerCase().includes(text),
    );
  };
  const renderOption = ({ option }: { option: ComboboxItem }) => (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {option.value}
      </Text>
      {names.get(option.value) && (
        <Text size="xs" c="dimmed">
          {names.get(option.value)}
        </Text>
      )}
    </Stack>
  );
  const common = {
    ...inputProps(props),
    disabled: props.disabled || props.readonly,
    data,
    searchable: true,
    filter,
    renderOption,
    nothingFoundMessage: t(context, choices === null ? 'messages.loading' : 'form.nothingFound'),
    maxDropdownHeight: 320,
    comboboxProps: CLOSED_LIST,
    onBlur: () => onBlur(id, value),
  };
  return many ? (
    <MultiSelect
      {...common}
      value={selected}
      clearable
      hidePickedOptions
      onChange={(next) => onChange(next)}
    />
  ) : (
    <Select
      {...common}
      value={selected[0] ?? null}
      clearable
      allowDeselect={false}
      onChange={(next) => onChange(next ?? undefined)}
    />
  );
});
