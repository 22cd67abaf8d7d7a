import { edgesOf, roundStatus } from '../../core/documents/requests';
import type { WorkflowScope } from './check-references';
import { said } from './problems';

/**
 * A workflow's `requests` (docs/workflows.md, "Requests for information") names actions and
 * catalogues: each must exist, and the actions must meet at one status, the one a round waits
 * in. An opening action leading to two statuses, or an answer taken from another one, would
 * leave a round no answer can close, or answers to a round that is not waiting.
 */
export function checkRequests({ workflow, catalogs, report }: WorkflowScope): void {
  const requests = workflow.requests;
  if (!requests) return;
  const edges = edgesOf(workflow);
  const groups = [
    ['open', requests.open],
    ['answer', requests.answer],
    ['save', requests.save ?? []],
  ] as const;
  for (const [group, actions] of groups)
    actions.forEach((action, index) => {
      if (!Object.hasOwn(workflow.actions, action) || workflow.actions[action]?.system)
        report(`/requests/${group}/${index}`, said('requestsUnknownAction', { action }));
      else if (!edges.some((edge) => edge.action === action))
        report(`/requests/${group}/${index}`, said('unusedAction', { action }));
    });
  const status = roundStatus(workflow);
  const opened = edges.filter((edge) => requests.open.includes(edge.action));
  if (!status) {
    if (opened.length > 0)
      report(
        '/requests/open',
        said('requestsOpenStatuses', {
          statuses: [...new Set(opened.map((edge) => edge.to))].join(', '),
        }),
      );
  } else {
    // Answers and saves are taken in the status a round waits in; saves stay there.
    for (const [group, actions] of groups.slice(1))
      actions.forEach((action, index) => {
        const wrong = edges.filter(
          (edge) =>
            edge.action === action &&
            (edge.from !== status || (group === 'save' && edge.to !== status)),
        );
        if (wrong.length > 0)
          report(
            `/requests/${group}/${index}`,
            said(group === 'save' ? 'requestsSaveStatus' : 'requestsAnswerStatus', {
              action,
              status,
            }),
          );
      });
  }
  (requests.catalogs ?? []).forEach((declared, index) => {
    // An unknown catalogue is reported by the references' check.
    const catalog = catalogs.find((c) => c.id === declared.catalog);
    if (!catalog) return;
    const properties = (catalog.schema.properties ?? {}) as Record<string, unknown>;
    const fields = [declared.code ?? 'code', ...Object.keys(declared.where ?? {})];
    for (const field of fields)
      if (!Object.hasOwn(properties, field))
        report(
          `/requests/catalogs/${index}`,
          said('catalogueHasNoField', { catalogue: declared.catalog, field }),
        );
  });
}
