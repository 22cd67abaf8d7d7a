import { documentRoute } from '../../core/documents/document-route';
import { useNavigate } from 'react-router-dom';
import {
  fullRoles,
  type WorkflowDefinition,
  type WorkflowList,
} from '../../core/documents/workflow';
import { DocumentFinder } from '../../engine';
import { usePortal } from '../context';

/** A list of a workflow, as its definition describes it. */
export function DocumentListPage({
  workflow,
  list,
}: {
  workflow: WorkflowDefinition;
  list: WorkflowList;
}) {
  const { api, session } = usePortal();
  const navigate = useNavigate();
  const newScreen = workflow.screens.find((s) => s.mode === 'new');
  const canCreate =
    newScreen !== undefined && session.hasAnyRole(fullRoles(workflow, newScreen.roles));
  return (
    <DocumentFinder
      key={`${workflow.id}/${list.id}`}
      workflow={workflow}
      list={list}
      api={api}
      onOpen={(document) => navigate(documentRoute(workflow, list.open, document))}
      onNew={canCreate ? () => navigate(`${workflow.prefix}${newScreen.path}`) : undefined}
    />
  );
}
