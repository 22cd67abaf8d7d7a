import type { WorkflowAction } from '../../core/documents/workflow';
import { resolvePointer } from '../../core/rules/registry';
import { invalid } from '../search/compile-search';
import type { CompiledWorkflow } from './workflows';

/** JSON with object keys sorted, so two values equal in content compare equal as text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

/** `mustChange`: refused while the flag at its pointer is set and the owner's data is as stored. */
export function checkChanged(
  workflow: CompiledWorkflow,
  action: WorkflowAction,
  stored: Record<string, unknown>,
  next: Record<string, unknown>,
): void {
  if (!action.mustChange || resolvePointer(stored, action.mustChange) !== true) return;
  const changed = workflow.applicantSections.some(
    (section) => canonical(stored[section]) !== canonical(next[section]),
  );
  if (!changed) throw invalid([{ path: '', rule: 'noChanges' }]);
}
