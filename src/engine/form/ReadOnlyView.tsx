import { Fragment, memo, type ReactNode } from 'react';
import { Box, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { JsonSchema } from '../../core/definitions/types';
import { translate, type Language } from '../../core/i18n/translate';
import { localizedText, translationOf, TRANSLATIONS_FIELD } from '../../core/i18n/localized';
import { formatDate, formatDateTime, formatMoney } from './format';
import { allProperties, asObject, enumName, fieldLabel, schemaType, type Texts } from './texts';
import type { FormServices } from './types';
import { isBlank } from './sectionStatus';
import { useAnswer } from '../useAnswer';
import { listTexts } from './listTexts';
import { catalogLabel } from './widgets/CatalogWidget';
import { FileLink, fileKind, fileSize } from './widgets/FileLink';
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
  /** `readFile` makes each upload a link that opens it. */
  services?: FormServices;
  /** The label, when the uiSchema takes it from a sibling's value (`labelFrom`). */
  label?: string;
}

const NO_SERVICES: FormServices = {};

/** A leaf value as the document reads: dates DD/MM/YYYY, NZD, enum names, Yes/No, file names. */
export function displayValue(props: ViewProps): string {
  const { schema, ui, value, path, texts, language, entityId } = props;
  const widget = ui?.['ui:widget'];
  if (isMediaReference(value))
    return `${value.name} (${fileKind(value.type)}, ${fileSize(texts, language, value.size)})`;
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

/** A catalogue code as the form's select shows it: with its entry's name once that arrives. */
function CatalogValue({
  code,
  catalog,
  services,
  language,
}: {
  code: string;
  catalog: string;
  services: FormServices;
  /** The names come in the reader's language: asked again when it changes. */
  language: Language;
}) {
  const searchCatalog = services.searchCatalog;
  const name = useAnswer(
    searchCatalog && catalog
      ? () => searchCatalog(catalog, code).then((found) => found.find((o) => o.code === code)?.name)
      : undefined,
    [code, catalog, searchCatalog, language],
  );
  return <>{name ? catalogLabel({ code, name }) : code}</>;
}

function Field({
  label,
  children,
  lines = false,
}: {
  label: string;
  children: ReactNode;
  /** A text written on several lines (a textarea's) keeps them. */
  lines?: boolean;
}) {
  return (
    <Box role="group" aria-label={label}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {/* A long word (an address, a link) breaks rather than widen a small screen. */}
      <Text
        size="sm"
        component="div"
        style={{ overflowWrap: 'anywhere', ...(lines ? { whiteSpace: 'pre-line' } : {}) }}
      >
        {children}
      </Text>
    </Box>
  );
}

function optionsOf(ui: JsonSchema | undefined): JsonSchema {
  return asObject(ui?.['ui:options']) ?? {};
}

/**
 * The fields of an object as label/value pairs, hidden ones left out; a field labelled by a
 * sibling (`labelFrom`) shows even unanswered, so a question is never silently missing.
 */
function ObjectView(props: ViewProps) {
  const record = (props.value ?? {}) as Record<string, unknown>;
  const rows = allProperties(props.schema).flatMap(([name, child]) => {
    const ui = asObject(props.ui?.[name]);
    if (ui?.['ui:widget'] === 'hidden' || name === TRANSLATIONS_FIELD) return [];
    const from = optionsOf(ui).labelFrom;
    // A text copied from a catalogue reads in the reader's language (its `i18n` beside it).
    const label = typeof from === 'string' ? localizedText(record, from, props.language) : '';
    const value = translationOf(record, name, props.language) ?? record[name];
    if (isBlank(value) && !label) return [];
    return [{ name, child, ui, label: label || undefined, value }];
  });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
      {rows.map(({ name, child, ui, label, value }) => (
        <ValueView
          key={name}
          {...props}
          schema={child}
          ui={ui}
          value={value}
          path={props.path ? `${props.path}.${name}` : name}
          label={label}
        />
      ))}
    </SimpleGrid>
  );
}

/** Whether an object item shows a single field (a question and its answer): no box around it. */
function singleField(schema: JsonSchema, ui: JsonSchema | undefined): boolean {
  const shown = allProperties(schema).filter(
    ([name]) => asObject(ui?.[name])?.['ui:widget'] !== 'hidden',
  );
  return shown.length === 1;
}

function ValueView(props: ViewProps) {
  const { schema, ui, value, path, texts, language, entityId } = props;
  const type = schemaType(schema);
  const label = props.label ?? fieldLabel(texts, language, entityId, path);
  if (isMediaReference(value)) {
    return (
      <Field label={label}>
        <FileLink
          file={value}
          services={props.services ?? NO_SERVICES}
          texts={texts}
          language={language}
        />
      </Field>
    );
  }
  if (type !== 'object' && type !== 'array') {
    return (
      <Field label={label} lines={ui?.['ui:widget'] === 'textarea'}>
        {isBlank(value) ? (
          translate(texts, language, 'form.nothing')
        ) : ui?.['ui:widget'] === 'catalog' && typeof value === 'string' ? (
          <CatalogValue
            code={value}
            catalog={String(optionsOf(ui).catalog ?? '')}
            services={props.services ?? NO_SERVICES}
            language={language}
          />
        ) : (
          displayValue(props)
        )}
      </Field>
    );
  }
  if (type === 'array' && Array.isArray(value)) {
    const items = asObject(schema.items) ?? {};
    const itemUi = asObject(ui?.items);
    const objects = schemaType(items) === 'object';
    const boxed = objects && !singleField(items, itemUi);
    // Each boxed item under its heading, as the form shows it ("Dependant 1").
    const heading =
      boxed && optionsOf(itemUi).groupLabelFrom === undefined
        ? listTexts(texts, language, entityId, path).item
        : undefined;
    const itemView = (item: unknown) => (
      <ObjectView {...props} schema={items} ui={itemUi} value={item} label={undefined} />
    );
    return (
      <Box style={{ gridColumn: '1 / -1' }}>
        {label !== '' && (
          <Text size="sm" c="dimmed">
            {label}
          </Text>
        )}
        <Stack gap="xs">
          {value.map((item, index) =>
            boxed ? (
              <Paper key={index} withBorder p="xs">
                {heading && (
                  <Text size="sm" fw={500} mb={4}>
                    {heading(index + 1)}
                  </Text>
                )}
                {itemView(item)}
              </Paper>
            ) : objects ? (
              <Fragment key={index}>{itemView(item)}</Fragment>
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
      <ObjectView {...props} label={undefined} />
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
          {/* A list section: its title above says what the list is. */}
          <ValueView {...props} label={type === 'array' ? '' : undefined} />
        </SimpleGrid>
      )}
    </Stack>
  );
});
