import type { EntityDefinition } from './types';

/** A field filled with a catalogue select (`ui:widget: catalog`), read alike by widget, server check and certificate. */
export interface CatalogField {
  /** Where the field is: pointer segments, `*` for every item of an array. */
  segments: string[];
  catalog: string;
  /** Entry field -> JSON pointer of the document whose value it must equal. */
  match: Array<[string, string]>;
  /** Entry field -> the only values it may hold (a visa's document: binders VISA and PERMIT). */
  allowed: Array<[string, string[]]>;
  /** Translation key when the entry exists but does not match (`ui:options.matchMessage`). */
  matchMessage: string;
}

type Node = Record<string, unknown>;

/** `ui:options.match` of a catalogue select: entry field -> pointer of the document's value. */
export function catalogMatch(option: unknown): Array<[string, string]> {
  const node = asNode(option);
  return node
    ? Object.entries(node).filter((pair): pair is [string, string] => typeof pair[1] === 'string')
    : [];
}

/** `ui:options.match` entries given as a list: entry field -> the values it may hold. */
export function catalogAllowed(option: unknown): Array<[string, string[]]> {
  const node = asNode(option);
  return node
    ? Object.entries(node)
        .filter((pair): pair is [string, unknown[]] => Array.isArray(pair[1]))
        .map(([field, values]) => [field, values.map(String)])
    : [];
}

function asNode(value: unknown): Node | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Node)
    : undefined;
}

/** The message of a code that names no entry valid now. */
export const UNKNOWN_CATALOG_ENTRY = 'validation.unknownCatalogEntry';

/** The catalogue fields of an entity, walking its schema and uiSchema together. */
export function catalogFieldsOf(entity: EntityDefinition): CatalogField[] {
  const found: CatalogField[] = [];
  const visit = (schema: Node | undefined, ui: Node | undefined, segments: string[]) => {
    if (!schema || !ui) return;
    const options = asNode(ui['ui:options']);
    if (ui['ui:widget'] === 'catalog' && typeof options?.catalog === 'string') {
      found.push({
        segments,
        catalog: options.catalog,
        match: catalogMatch(options.match),
        allowed: catalogAllowed(options.match),
        matchMessage:
          typeof options.matchMessage === 'string' ? options.matchMessage : UNKNOWN_CATALOG_ENTRY,
      });
      return;
    }
    const properties = asNode(schema.properties);
    if (properties) {
      for (const [key, child] of Object.entries(properties)) {
        visit(asNode(child), asNode(ui[key]), [...segments, key]);
      }
    }
    if (asNode(schema.items)) visit(asNode(schema.items), asNode(ui.items), [...segments, '*']);
  };
  visit(asNode(entity.schema), asNode(entity.uiSchema), []);
  return found;
}
