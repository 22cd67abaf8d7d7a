import { isDeepStrictEqual } from 'node:util';
import type { WorkflowAction } from '../../core/documents/workflow';
import { resolvePointer } from '../../core/rules/registry';
import { invalid } from '../search/compile-search';
import type { CompiledWorkflow } from './workflows';

/** `mustChange`: refused while the flag at its pointer is set and the owner's data is as stored. */
export function checkChanged(
  workflow: CompiledWorkflow,
  action: WorkflowAction,
  stored: Record<string, unknown>,
  next: Record<string, unknown>,
): void {
  if (!action.mustChange || resolvePointer(stored, action.mustChange) !== true) return;
  const changed = workflow.applicantSections.some(
    (section) => !isDeepStrictEqual(stored[section], next[section]),
  );
  if (!changed) throw invalid([{ path: '', rule: 'noChanges' }]);
}
