import type { JsonSchema, JsonValue } from '../../core/definitions/types';
import { lookup, type Language, type TextTree } from '../../core/i18n/translate';

export type Texts = Partial<Record<Language, TextTree>>;

function find(texts: Texts, language: Language, key: string): string | undefined {
  return lookup(texts[language] ?? {}, key) ?? lookup(texts.en ?? {}, key);
}

/** A field's label: `<entity>.<path>` or `<entity>.<path>._`, else the property name. */
export function fieldLabel(texts: Texts, language: Language, entityId: string, path: string) {
  const key = `${entityId}.${path}`;
  return (
    find(texts, language, key) ?? find(texts, language, `${key}._`) ?? path.split('.').pop() ?? path
  );
}

export function fieldHelp(texts: Texts, language: Language, entityId: string, path: string) {
  return find(texts, language, `${entityId}.${path}.help`);
}

export function enumName(
  texts: Texts,
  language: Language,
  entityId: string,
  path: string,
  value: unknown,
): string {
  return find(texts, language, `${entityId}.${path}.enum.${String(value)}`) ?? String(value);
}

export function asObject(value: JsonValue | undefined): JsonSchema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

/**
 * Every property an object schema may show, including those that conditions (`then`, `else`,
 * `allOf`, `dependencies`, `oneOf`/`anyOf`) add, with the first schema seen for each.
 */
export function allProperties(schema: JsonSchema): Array<[string, JsonSchema]> {
  const found = new Map<string, JsonSchema>();
  const visit = (node: JsonSchema | undefined) => {
    if (!node) return;
    for (const [name, property] of Object.entries(asObject(node.properties) ?? {})) {
      const child = asObject(property);
      if (child && (!found.has(name) || Object.keys(found.get(name) ?? {}).length === 0)) {
        found.set(name, child);
      }
    }
    visit(asObject(node.then));
    visit(asObject(node.else));
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((item) => visit(asObject(item)));
    }
    for (const dependency of Object.values(asObject(node.dependencies) ?? {}))
      visit(asObject(dependency));
  };
  visit(schema);
  return [...found.entries()];
}

/** The schema's `type` when it names one (first of a list). */
export function schemaType(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type))
    return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  if (schema.properties) return 'object';
  return undefined;
}
