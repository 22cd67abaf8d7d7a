import type { EntityDefinition } from '../../core/definitions/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { schemaHasField } from '../definitions/check-records';
import {
  problemOf,
  said,
  workflowFile,
  type ProblemText,
  type SaidProblem,
} from '../definitions/problems';
import { backendOf, DEFAULT_BACKEND } from '../../core/documents/conventions';

/** Cross-checks of a workflow's tasks and verification the meta-schema cannot express. */
export function crossCheckDashboard(
  workflow: WorkflowDefinition,
  entity: EntityDefinition | undefined,
  problems: SaidProblem[],
): void {
  const file = workflowFile(workflow.id);
  const problem = (pointer: string, text: ProblemText) =>
    problems.push(problemOf(file, pointer, text));
  checkTasks(workflow, problem);
  const verification = workflow.verification;
  if (!verification) return;
  if (!workflow.numbering) problem('/verification', said('verificationNeedsNumbering'));
  if (backendOf(workflow) !== DEFAULT_BACKEND)
    problem('/verification', said('verificationEvisaOnly'));
  verification.statuses.forEach((status, i) => {
    if (!Object.hasOwn(workflow.machine.states, status))
      problem(`/verification/statuses/${i}`, said('noStatus', { status }));
  });
  const field = (place: string, pointer: string | undefined) => {
    if (entity && pointer && !schemaHasField(entity.schema, pointer))
      problem(`/verification/${place}`, said('notFieldOfSchema', { pointer, schema: entity.id }));
  };
  verification.secondFactors.forEach((pointer, i) => field(`secondFactors/${i}`, pointer));
  field('validFrom', verification.validFrom);
  field('validUntil', verification.validUntil);
}

/** An owner's task names a status of the machine and a screen of the workflow, once per status. */
function checkTasks(
  workflow: WorkflowDefinition,
  problem: (pointer: string, text: ProblemText) => void,
): void {
  const seen = new Set<string>();
  (workflow.tasks?.owner ?? []).forEach((task, i) => {
    const at = `/tasks/owner/${i}`;
    if (!Object.hasOwn(workflow.machine.states, task.status))
      problem(`${at}/status`, said('noStatus', { status: task.status }));
    else if (seen.has(task.status))
      problem(`${at}/status`, said('statusNamedTwice', { status: task.status }));
    seen.add(task.status);
    if (!workflow.screens.some((screen) => screen.path === task.open))
      problem(`${at}/open`, said('noScreen', { screen: task.open }));
  });
}
