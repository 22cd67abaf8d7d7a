import type { EntityDefinition } from './types';
import { asNode } from './json';
import { walkUi } from './ui-walk';

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

/** The message of a code that names no entry valid now. */
export const UNKNOWN_CATALOG_ENTRY = 'validation.unknownCatalogEntry';

/** The catalogue fields of an entity, walking its schema and uiSchema together. */
export function catalogFieldsOf(entity: EntityDefinition): CatalogField[] {
  const found: CatalogField[] = [];
  walkUi(entity.schema, entity.uiSchema, (_schema, ui, segments) => {
    const options = asNode(ui['ui:options']);
    if (ui['ui:widget'] !== 'catalog' || typeof options?.catalog !== 'string') return false;
    found.push({
      segments,
      catalog: options.catalog,
      match: catalogMatch(options.match),
      allowed: catalogAllowed(options.match),
      matchMessage:
        typeof options.matchMessage === 'string' ? options.matchMessage : UNKNOWN_CATALOG_ENTRY,
    });
    return true;
  });
  return found;
}
