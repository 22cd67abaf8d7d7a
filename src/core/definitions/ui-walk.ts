import { asNode, type Node } from './json';

/**
 * Walks a schema and its uiSchema together, depth first, while both hold an object: `visit`
 * gets each pair with its path (`*` for an array's items) and returns true to go no deeper.
 */
export function walkUi(
  schema: unknown,
  ui: unknown,
  visit: (schema: Node, ui: Node, segments: string[]) => boolean | void,
  segments: string[] = [],
): void {
  const node = asNode(schema);
  const uiNode = asNode(ui);
  if (!node || !uiNode || visit(node, uiNode, segments)) return;
  for (const [key, child] of Object.entries(asNode(node.properties) ?? {}))
    walkUi(child, uiNode[key], visit, [...segments, key]);
  walkUi(node.items, uiNode.items, visit, [...segments, '*']);
}
