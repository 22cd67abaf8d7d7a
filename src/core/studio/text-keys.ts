import { isNode, type Node } from '../definitions/json';

/** Texts of a translation file flattened to their keys (`person.familyName._`). */
export type FlatTexts = Map<string, string>;

/** Every text of a tree by its dotted key; `$schema` and notes are not texts. */
export function flattenTexts(tree: unknown, prefix = ''): FlatTexts {
  const flat: FlatTexts = new Map();
  if (!isNode(tree)) return flat;
  for (const [key, value] of Object.entries(tree)) {
    if (key.startsWith('$')) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') flat.set(path, value);
    else for (const [inner, text] of flattenTexts(value, path)) flat.set(inner, text);
  }
  return flat;
}

/** The keys of both languages, in the English file's order, then the French file's own. */
export function textKeys(en: FlatTexts, fr: FlatTexts): string[] {
  return [...new Set([...en.keys(), ...fr.keys()])];
}

/** The tree with the text at a dotted key set, or removed when empty; a plain text becomes a group's `_`. */
export function setText(tree: Node, key: string, text: string): Node {
  const next = structuredClone(tree);
  const parts = key.split('.');
  let node: Node = next;
  for (const part of parts.slice(0, -1)) {
    const child = node[part];
    if (typeof child === 'string') node[part] = { _: child };
    else if (!isNode(child)) node[part] = {};
    node = node[part] as Node;
  }
  const last = parts[parts.length - 1] as string;
  if (text === '') delete node[last];
  else node[last] = text;
  return next;
}
