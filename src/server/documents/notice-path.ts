import { documentRoute } from '../../core/documents/document-route';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { DocumentDraft } from './effect-context';

/** Where a notice leads: the holder's waiting task in this status, else the document's view. */
export function noticePath(
  workflow: WorkflowDefinition,
  document: Pick<DocumentDraft, 'id' | 'status' | 'data'>,
): string {
  const task = workflow.tasks?.owner?.find((t) => t.status === document.status);
  const view = workflow.screens.find((s) => s.mode === 'view')?.path ?? '/view/:id';
  return documentRoute(workflow, task?.open ?? view, document);
}
