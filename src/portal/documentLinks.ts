import type { DefinitionBundle } from '../core/definitions/types';
import { documentRoute } from '../core/documents/document-route';
import { fullRoles } from '../core/documents/workflow';
import type { Session } from './session';

/**
 * The screen a document opens on from a dashboard: the list's row screen when the user may open
 * it, else the view screen, else the first openable list's row screen.
 */
export function documentPath(
  bundle: Pick<DefinitionBundle, 'workflows'>,
  session: Session,
  workflowId: string,
  id: string,
  listId?: string | null,
): string | undefined {
  const workflow = bundle.workflows.find((w) => w.id === workflowId);
  if (!workflow) return undefined;
  const may = (roles: string[]) => session.hasAnyRole(fullRoles(workflow, roles));
  const lists = workflow.lists.filter((list) => may(list.roles));
  const queue = lists.find((list) => list.id === listId);
  const view = workflow.screens.find((screen) => screen.mode === 'view' && may(screen.roles));
  const path = queue?.open ?? view?.path ?? lists[0]?.open;
  return path ? documentRoute(workflow, path, { id }) : undefined;
}
