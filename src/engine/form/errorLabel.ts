import type { JsonSchema, JsonValue } from '../../core/definitions/types';
import type { Language } from '../../core/i18n/translate';
import { listTexts } from './listTexts';
import { allProperties, asObject, fieldLabel, schemaType, type Texts } from './texts';
import { pointerSegments } from './validation';

/** A field as an error summary names it: after its lists' items ("Dependant 1, Family name"). */
export function errorFieldLabel(
  definition: { id: string; schema: JsonSchema; uiSchema?: JsonSchema },
  texts: Texts,
  language: Language,
  data: unknown,
  pointer: string,
): string {
  const parts: string[] = [];
  let schema: JsonSchema | undefined = definition.schema;
  let ui: JsonSchema | undefined = definition.uiSchema;
  let value: unknown = data;
  let parent: unknown;
  const names: string[] = [];
  let label: string | undefined;
  for (const segment of pointerSegments(pointer)) {
    if (!schema) break;
    parent = value;
    value =
      asRecord(value)?.[segment] ?? (Array.isArray(value) ? value[Number(segment)] : undefined);
    const items = asObject(schema.items);
    if (schemaType(schema) === 'array' && items && /^\d+$/.test(segment)) {
      const itemUi = asObject(ui?.items);
      const own = textAt(value, asObject(itemUi?.['ui:options'])?.groupLabelFrom);
      const path = names.join('.');
      parts.push(own ?? listTexts(texts, language, definition.id, path).item(Number(segment) + 1));
      schema = items;
      ui = itemUi;
      label = undefined;
      continue;
    }
    names.push(segment);
    schema = allProperties(schema).find(([name]) => name === segment)?.[1];
    ui = asObject(ui?.[segment]);
    label =
      textAt(parent, asObject(ui?.['ui:options'])?.labelFrom) ??
      fieldLabel(texts, language, definition.id, names.join('.'));
  }
  if (label !== undefined && parts.at(-1) !== label) parts.push(label);
  return parts.join(', ');
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A sibling's value as text, when the option names one holding a non-empty string. */
function textAt(data: unknown, field: JsonValue | undefined): string | undefined {
  if (typeof field !== 'string') return undefined;
  const found = asRecord(data)?.[field];
  return typeof found === 'string' && found !== '' ? found : undefined;
}
