import { memo, type ReactNode } from 'react';
import { Box, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { JsonSchema } from '../../core/definitions/types';
import { translate, type Language } from '../../core/i18n/translate';
import { formatDate, formatDateTime, formatMoney, formatSize } from './format';
import { allProperties, asObject, enumName, fieldLabel, schemaType, type Texts } from './texts';
import { isMediaReference } from './widgets/FileWidget';

interface ViewProps {
  schema: JsonSchema;
  ui: JsonSchema | undefined;
  value: unknown;
  /** Text path (dot-joined property names, no indices). */
  path: string;
  texts: Texts;
  language: Language;
  entityId: string;
}

function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.values(value as object).every(isBlank))
  );
}

/** A leaf value as the document reads: dates DD/MM/YYYY, NZD, enum names, Yes/No, file names. */
export function displayValue(props: ViewProps): string {
  const { schema, ui, value, path, texts, language, entityId } = props;
  const widget = ui?.['ui:widget'];
  if (isMediaReference(value)) return `${value.name} (${formatSize(value.size)})`;
  if (typeof value === 'boolean') return translate(texts, language, value ? 'form.yes' : 'form.no');
  if (Array.isArray(schema.enum)) return enumName(texts, language, entityId, path, value);
  if (typeof value === 'string') {
    if (widget === 'date' || schema.format === 'date') return formatDate(value);
    if (widget === 'datetime' || schema.format === 'date-time') return formatDateTime(value);
    if (widget === 'money') return formatMoney(value, language);
    return value;
  }
  if (typeof value === 'number')
    return widget === 'money' ? formatMoney(String(value), language) : String(value);
  return JSON.stringify(value);
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box role="group" aria-label={label}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </Box>
  );
}

function ObjectView(props: ViewProps) {
  const record = (props.value ?? {}) as Record<string, unknown>;
  const rows = allProperties(props.schema).filter(([name]) => !isBlank(record[name]));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
      {rows.map(([name, child]) => (
        <ValueView
          key={name}
          {...props}
          schema={child}
          ui={asObject(props.ui?.[name])}
          value={record[name]}
          path={props.path ? `${props.path}.${name}` : name}
        />
      ))}
    </SimpleGrid>
  );
}

function ValueView(props: ViewProps) {
  const { schema, ui, value, path, texts, language, entityId } = props;
  const type = schemaType(schema);
  const label = fieldLabel(texts, language, entityId, path);
  if (isMediaReference(value) || (type !== 'object' && type !== 'array')) {
    return <Field label={label}>{displayValue(props)}</Field>;
  }
  if (type === 'array' && Array.isArray(value)) {
    const items = asObject(schema.items) ?? {};
    const itemUi = asObject(ui?.items);
    const objects = schemaType(items) === 'object';
    return (
      <Box style={{ gridColumn: '1 / -1' }}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        <Stack gap="xs">
          {value.map((item, index) =>
            objects ? (
              <Paper key={index} withBorder p="xs">
                <ObjectView {...props} schema={items} ui={itemUi} value={item} />
              </Paper>
            ) : (
              <Text key={index} size="sm">
                {displayValue({ ...props, schema: items, ui: itemUi, value: item })}
              </Text>
            ),
          )}
        </Stack>
      </Box>
    );
  }
  return (
    <Box style={{ gridColumn: '1 / -1' }}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <ObjectView {...props} />
    </Box>
  );
}

/** A section read as a document: label/value pairs, never disabled inputs. */
export const ReadOnlySection = memo(function ReadOnlySection(props: ViewProps) {
  const type = schemaType(props.schema);
  const title = fieldLabel(props.texts, props.language, props.entityId, props.path);
  return (
    <Stack gap="xs" data-testid={`readonly-${props.path}`}>
      <Title order={4}>{title}</Title>
      {isBlank(props.value) ? (
        <Text size="sm" c="dimmed">
          {translate(props.texts, props.language, 'form.nothing')}
        </Text>
      ) : type === 'object' && !isMediaReference(props.value) ? (
        <ObjectView {...props} />
      ) : (
        <SimpleGrid cols={1}>
          <ValueView {...props} />
        </SimpleGrid>
      )}
    </Stack>
  );
});
