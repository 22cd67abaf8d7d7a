import type { EntityDefinition } from '../../core/definitions/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { schemaHasField } from '../definitions/check-records';
import type { DefinitionProblem } from '../definitions/problems';
import { backendOf, DEFAULT_BACKEND } from '../../core/documents/conventions';

/** Cross-checks of a workflow's tasks and verification the meta-schema cannot express. */
export function crossCheckDashboard(
  workflow: WorkflowDefinition,
  entity: EntityDefinition | undefined,
  problems: DefinitionProblem[],
): void {
  const file = `workflows/${workflow.id}.json`;
  const problem = (pointer: string, message: string) => problems.push({ file, pointer, message });
  checkTasks(workflow, problem);
  const verification = workflow.verification;
  if (!verification) return;
  if (!workflow.numbering) problem('/verification', 'verification needs numbering');
  if (backendOf(workflow) !== DEFAULT_BACKEND)
    problem('/verification', 'verification is offered for evisa documents only');
  verification.statuses.forEach((status, i) => {
    if (!Object.hasOwn(workflow.machine.states, status))
      problem(`/verification/statuses/${i}`, `no status "${status}" in the machine`);
  });
  const field = (place: string, pointer: string | undefined) => {
    if (entity && pointer && !schemaHasField(entity.schema, pointer))
      problem(`/verification/${place}`, `"${pointer}" is not a field of schema "${entity.id}"`);
  };
  verification.secondFactors.forEach((pointer, i) => field(`secondFactors/${i}`, pointer));
  field('validFrom', verification.validFrom);
  field('validUntil', verification.validUntil);
}

/** An owner's task names a status of the machine and a screen of the workflow, once per status. */
function checkTasks(
  workflow: WorkflowDefinition,
  problem: (pointer: string, message: string) => void,
): void {
  const seen = new Set<string>();
  (workflow.tasks?.owner ?? []).forEach((task, i) => {
    const at = `/tasks/owner/${i}`;
    if (!Object.hasOwn(workflow.machine.states, task.status))
      problem(`${at}/status`, `no status "${task.status}" in the machine`);
    else if (seen.has(task.status))
      problem(`${at}/status`, `status "${task.status}" is named twice`);
    seen.add(task.status);
    if (!workflow.screens.some((screen) => screen.path === task.open))
      problem(`${at}/open`, `no screen "${task.open}"`);
  });
}
