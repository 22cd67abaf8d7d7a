import type { EntityDefinition } from '../../core/definitions/types';

/** Every catalogue a form draws a field from: `ui:options.catalog` anywhere in a uiSchema. */
export function formCatalogs(entities: readonly EntityDefinition[]): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    const options = (node as Record<string, unknown>)['ui:options'];
    const catalog = (options as { catalog?: unknown } | undefined)?.catalog;
    if (typeof catalog === 'string') found.add(catalog);
    Object.values(node).forEach(visit);
  };
  entities.forEach((entity) => visit(entity.uiSchema));
  return found;
}
