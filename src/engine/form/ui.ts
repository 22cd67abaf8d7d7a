import type { UiSchema } from '@rjsf/utils';
import type { JsonSchema, JsonValue } from '../../core/definitions/types';
import type { Language } from '../../core/i18n/translate';
import { TRANSLATIONS_FIELD } from '../../core/i18n/localized';
import {
  allProperties,
  asObject,
  enumName,
  fieldHelp,
  fieldLabel,
  schemaType,
  type Texts,
} from './texts';
import { CLOSED_LIST } from './closedList';
import { isEngineWidget, type WidgetSet } from './widgets';

export interface UiTexts {
  texts: Texts;
  language: Language;
  entityId: string;
  /** The widgets the form draws with (the engine's and modules'), when not the engine's alone. */
  widgets?: WidgetSet;
}

/**
 * A property's uiSchema completed with translated titles, help and enum names, and object-valued
 * engine widgets (file) routed through the `engineWidget` field.
 */
export function decorateUi(
  schema: JsonSchema,
  ui: JsonSchema | undefined,
  path: string,
  at: UiTexts,
  item = false,
): UiSchema {
  const result: UiSchema = { ...(ui ?? {}) };
  const { texts, language, entityId } = at;
  // When a field applies is the form's to decide (its context's fieldApplies), not a widget's
  // option: RJSF's themes hand unknown options to the input element as attributes.
  const { when: _when, ...options } = asObject(result['ui:options']) ?? {};
  if (_when !== undefined) result['ui:options'] = options;
  if (item) {
    result['ui:label'] = false;
  } else {
    result['ui:title'] = fieldLabel(texts, language, entityId, path);
    const help = fieldHelp(texts, language, entityId, path);
    if (help !== undefined) result['ui:description'] = help;
  }
  if (Array.isArray(schema.enum)) {
    // The list opens in a portal, else the fields below cover its options and take their clicks;
    // choosing the chosen option again keeps it (Mantine's default emptied a required select).
    const select = result['ui:widget'] === undefined || result['ui:widget'] === 'select';
    result['ui:options'] = {
      comboboxProps: { withinPortal: true, ...CLOSED_LIST },
      ...(select && { allowDeselect: false, clearable: true }),
      ...asObject(result['ui:options']),
    };
    result['ui:enumNames'] = Object.fromEntries(
      schema.enum.map((value: JsonValue) => [
        String(value),
        enumName(texts, language, entityId, path, value),
      ]),
    );
  }
  const type = schemaType(schema);
  if (type === 'object' && isEngineWidget(result['ui:widget'], at.widgets)) {
    result['ui:field'] = 'engineWidget';
    return result;
  }
  if (type === 'object') {
    for (const [name, child] of allProperties(schema)) {
      // The other languages' texts of copied catalogue texts are read, never typed.
      if (name === TRANSLATIONS_FIELD) result[name] = { 'ui:widget': 'hidden' };
      else result[name] = decorateUi(child, asObject(ui?.[name]), `${path}.${name}`, at);
    }
  } else if (type === 'array') {
    const items = asObject(schema.items);
    if (items) {
      const itemUi = decorateUi(items, asObject(ui?.items), path, at, true);
      if (schemaType(items) !== 'object') {
        delete itemUi['ui:label'];
        itemUi['ui:title'] = fieldLabel(texts, language, entityId, path);
      }
      result.items = itemUi;
    }
  }
  return result;
}

/**
 * The definition with the fields at `pointers` marked required (`ui:options.required`): what a
 * workflow action `requires`, though the schema leaves it optional. The same object if none.
 */
export function withRequiredFields<D extends { schema: JsonSchema; uiSchema?: JsonSchema }>(
  definition: D,
  pointers: readonly string[],
): D {
  if (pointers.length === 0) return definition;
  const root: JsonSchema = { ...(definition.uiSchema ?? {}) };
  for (const pointer of pointers) {
    const names = pointer.split('/').slice(1);
    let schema: JsonSchema | undefined = definition.schema;
    let ui = root;
    names.forEach((name, i) => {
      // Array indices are no level of the uiSchema; an array's fields are under its `items`.
      if (schema && schemaType(schema) === 'array') {
        schema = asObject(schema.items);
        ui = ui.items = { ...asObject(ui.items) };
      }
      if (/^\d+$/.test(name)) return;
      schema = schema
        ? allProperties(schema).find(([property]) => property === name)?.[1]
        : undefined;
      const child: JsonSchema = { ...asObject(ui[name]) };
      if (i === names.length - 1)
        child['ui:options'] = { ...asObject(child['ui:options']), required: true };
      ui[name] = child;
      ui = child;
    });
  }
  return { ...definition, uiSchema: root };
}
