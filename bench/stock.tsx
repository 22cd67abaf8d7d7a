import { Container } from '@mantine/core';
import { withTheme } from '@rjsf/core';
import { Theme as MantineTheme } from '@rjsf/mantine';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import type { JsonSchema } from '../src/core/definitions/types';
import { decorateUi } from '../src/engine/form/ui';
import { asObject } from '../src/engine/form/texts';
import { definition, renderBench, texts } from './shared';

/**
 * Stock RJSF: @rjsf/core's Form with the @rjsf/mantine theme, the stock AJV 8 validator with
 * liveValidate, the whole schema at once and otherwise default settings (uncontrolled).
 *
 * The uiSchema is the one our engine renders (the definition's, with the same translated
 * titles, descriptions and enum names), minus the names stock RJSF does not know: the engine's
 * widgets (date, datetime, money, yesNo, catalog, file, phone, email) and the `engineWidget`
 * field, so those fields get stock's default widget for their type.
 */
const ENGINE_ONLY_WIDGETS = new Set([
  'date',
  'datetime',
  'money',
  'yesNo',
  'catalog',
  'file',
  'phone',
  'email',
]);

function stripEngineNames(ui: UiSchema): UiSchema {
  const result: UiSchema = {};
  for (const [key, value] of Object.entries(ui)) {
    if (key === 'ui:widget' && typeof value === 'string' && ENGINE_ONLY_WIDGETS.has(value))
      continue;
    if (key === 'ui:field' && value === 'engineWidget') continue;
    if (key === 'ui:options' && typeof value === 'object' && value !== null) {
      const { catalog: _catalog, ...options } = value as UiSchema;
      if (Object.keys(options).length > 0) result[key] = options;
      continue;
    }
    result[key] =
      typeof value === 'object' && value !== null && !Array.isArray(value) && !key.startsWith('ui:')
        ? stripEngineNames(value as UiSchema)
        : value;
  }
  return result;
}

function stockUiSchema(): UiSchema {
  const ui: UiSchema = { 'ui:order': definition.uiSchema?.['ui:order'] as string[] | undefined };
  const properties = asObject(definition.schema.properties) ?? {};
  for (const [sectionId, property] of Object.entries(properties)) {
    const decorated = decorateUi(
      asObject(property) ?? ({} as JsonSchema),
      asObject(definition.uiSchema?.[sectionId]),
      sectionId,
      { texts, language: 'en', entityId: definition.id },
    );
    ui[sectionId] = stripEngineNames(decorated);
  }
  return ui;
}

const StockForm = withTheme(MantineTheme);
const schema = definition.schema as RJSFSchema;
const uiSchema = stockUiSchema();

renderBench(
  <Container size="lg" py="md">
    <StockForm schema={schema} uiSchema={uiSchema} validator={validator} liveValidate />
  </Container>,
  '#root_applicant_familyName',
);
