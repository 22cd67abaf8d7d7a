import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { DocumentDraft } from './effect-context';

/**
 * Where the holder goes on from a notice: the screen of the task waiting for them in the
 * document's status (a query to answer), else the document's view. A portal route.
 */
export function noticePath(
  workflow: WorkflowDefinition,
  document: Pick<DocumentDraft, 'id' | 'status'>,
): string {
  const task = workflow.tasks?.owner?.find((t) => t.status === document.status);
  const screen = task?.open ?? '/view/:id';
  return `${workflow.prefix}${screen.replace(':id', document.id)}`;
}
