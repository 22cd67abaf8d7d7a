import { resolvePointer } from '../rules/registry';
import type { WorkflowDefinition } from './workflow';

/** The parameter naming the document in a screen's path: `:id`, or the workflow's `key`. */
export function documentParam(path: string): string | undefined {
  return /:([A-Za-z][A-Za-z0-9]*)/.exec(path)?.[1];
}

/** How a document is named in the routes of its workflow's screens. */
export interface RoutedDocument {
  id: string;
  /** Its key's value, when known without its data (a list row's). */
  key?: string | null;
  data?: Record<string, unknown>;
}

/** The value of the workflow's key in a document's data, when it declares one. */
export function keyValue(
  workflow: Pick<WorkflowDefinition, 'key'>,
  data: Record<string, unknown> | undefined,
): string | undefined {
  if (!workflow.key || !data) return undefined;
  const value = resolvePointer(data, workflow.key.pointer);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The portal route of a screen for a document, named by its id while its key is unknown. */
export function documentRoute(
  workflow: Pick<WorkflowDefinition, 'prefix' | 'key'>,
  path: string,
  document: RoutedDocument,
): string {
  const param = documentParam(path);
  if (!param) return `${workflow.prefix}${path}`;
  const value =
    param === 'id'
      ? document.id
      : (document.key ?? keyValue(workflow, document.data) ?? document.id);
  return `${workflow.prefix}${path.replace(`:${param}`, encodeURIComponent(value))}`;
}
