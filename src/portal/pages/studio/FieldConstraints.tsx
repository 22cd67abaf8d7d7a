import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { KIND_CONSTRAINTS, type EnumerationOption } from '../../../core/studio/field-kinds';
import type { FormFieldDesign } from '../../../core/studio/schema-design';
import type { CatalogDefinition } from '../../../core/definitions/types';
import { asNode } from '../../../core/definitions/json';
import { catalogOptions } from './draftFiles';
import { textBinding, TextPair } from './designerParts';

/** The document types a reference may name, with the statuses of each one's workflow. */
export interface DocumentTypeChoice {
  id: string;
  statuses: string[];
}

const numberOrUndefined = (value: string | number) =>
  typeof value === 'number' ? value : undefined;

/** The longest code of a catalogue's key (a reference keeps the code). */
function keyLength(catalog: CatalogDefinition | undefined): number | undefined {
  const key = catalog?.key?.[0];
  const properties = asNode(catalog?.schema.properties);
  const length = key ? asNode(properties?.[key])?.maxLength : undefined;
  return typeof length === 'number' ? length : undefined;
}

/** The constraints of the kind chosen, and only those (field-kinds.ts `KIND_CONSTRAINTS`). */
export function FieldConstraints(props: {
  field: FormFieldDesign;
  set: (change: Partial<FormFieldDesign>) => void;
  catalogs: CatalogDefinition[];
  documentTypes: DocumentTypeChoice[];
  /** Whether the field goes into a list's items (no own message for a pattern there). */
  inList: boolean;
}) {
  const { t } = useTranslation();
  const { field, set } = props;
  const asks = KIND_CONSTRAINTS[field.type];
  const text = textBinding(field, set);
  const number = (key: keyof FormFieldDesign, label: string, min = 0) => (
    <NumberInput
      label={label}
      min={min}
      value={(field[key] as number | undefined) ?? ''}
      onChange={(value) => set({ [key]: numberOrUndefined(value) })}
    />
  );
  const statuses = props.documentTypes.find((d) => d.id === field.documentType)?.statuses ?? [];
  return (
    <Stack gap="sm">
      {asks.includes('length') && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {number('minLength', t('studio.form.minLength'))}
          {number('maxLength', t('studio.catalog.maxLength'), 1)}
        </SimpleGrid>
      )}
      {asks.includes('bounds') && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('studio.form.minimum')}
            value={field.minimum ?? ''}
            onChange={(value) => set({ minimum: numberOrUndefined(value) })}
          />
          <NumberInput
            label={t('studio.form.maximum')}
            value={field.maximum ?? ''}
            onChange={(value) => set({ maximum: numberOrUndefined(value) })}
          />
        </SimpleGrid>
      )}
      {asks.includes('integer') && (
        <Checkbox
          label={t('studio.form.integer')}
          checked={field.integer ?? false}
          onChange={(event) => set({ integer: event.currentTarget.checked })}
        />
      )}
      {asks.includes('items') && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {number('minItems', t('studio.form.minItems'))}
          {number('maxItems', t('studio.form.maxItems'), 1)}
        </SimpleGrid>
      )}
      {asks.includes('pattern') && (
        <>
          <TextInput
            label={t('studio.form.pattern')}
            description={t('studio.form.patternHelp')}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...text('pattern')}
          />
          {field.pattern && !props.inList && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextPair text={text} stem="patternMessage" labels="studio.form" required />
            </SimpleGrid>
          )}
          {field.pattern && props.inList && (
            <Text size="sm" c="dimmed">
              {t('studio.form.patternInList')}
            </Text>
          )}
        </>
      )}
      {asks.includes('options') && (
        <EnumerationOptions
          options={field.options ?? []}
          onChange={(options) => set({ options })}
        />
      )}
      {asks.includes('catalog') && (
        <Select
          label={t('studio.form.catalog')}
          description={t('studio.form.catalogHelp')}
          required
          searchable
          data={catalogOptions(props.catalogs)}
          value={field.catalog ?? null}
          onChange={(value) => {
            const catalog = props.catalogs.find((c) => c.id === value);
            set({ catalog: value ?? undefined, maxLength: keyLength(catalog) });
          }}
        />
      )}
      {asks.includes('document') && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('studio.form.documentType')}
            required
            searchable
            data={props.documentTypes.map((d) => d.id)}
            value={field.documentType ?? null}
            onChange={(value) => set({ documentType: value ?? undefined, documentStatuses: [] })}
          />
          <MultiSelect
            label={t('studio.form.documentStatuses')}
            description={t('studio.form.documentStatusesHelp')}
            required
            data={statuses.map((status) => ({
              value: status,
              label: t(`statuses.${status}`, { defaultValue: status }),
            }))}
            value={field.documentStatuses ?? []}
            onChange={(documentStatuses) => set({ documentStatuses })}
          />
        </SimpleGrid>
      )}
    </Stack>
  );
}

/** An enumeration's values, each with its name in English and French; added and removed. */
function EnumerationOptions(props: {
  options: EnumerationOption[];
  onChange: (options: EnumerationOption[]) => void;
}) {
  const { t } = useTranslation();
  const { options } = props;
  const change = (index: number, change: Partial<EnumerationOption>) =>
    props.onChange(options.map((o, i) => (i === index ? { ...o, ...change } : o)));
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('studio.form.options')}
      </Text>
      {options.map((option, index) => {
        const name = t('studio.form.optionNumber', { number: index + 1 });
        const text = textBinding(option, (c) => change(index, c));
        return (
          <Group key={index} role="group" aria-label={name} align="flex-end" gap="xs" wrap="nowrap">
            <TextInput label={t('studio.form.optionValue')} {...text('value', true)} w={110} />
            <TextPair text={text} stem="label" labels="studio.catalog" style={{ flex: 1 }} />
            <ActionIcon
              variant="subtle"
              color="red"
              mb={4}
              aria-label={t('studio.form.removeOption', { name })}
              onClick={() => props.onChange(options.filter((_, i) => i !== index))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        );
      })}
      <Group>
        <Button
          variant="default"
          size="xs"
          onClick={() => props.onChange([...options, { value: '', labelEn: '', labelFr: '' }])}
        >
          {t('studio.form.addOption')}
        </Button>
      </Group>
    </Stack>
  );
}
