/**
 * Delegated access as the portal reads it (docs/delegation.md, "In the portal"): the answers of
 * the delegation routes and what a document screen makes of a workflow's `delegation` keyword.
 * Module-neutral: the grants, their words and the holder's own fields come from the definitions.
 */
import type { WorkflowDelegation } from '../../core/definitions/shapes/delegation';
import type { DocumentDelegationView, DocumentView } from '../../core/documents/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';

export type {
  Delegation,
  HolderDelegations,
  NewDelegation,
  ReceivedDelegation,
} from '../../core/documents/delegation';
export type { DocumentDelegationView as DelegationOfView } from '../../core/documents/types';

/** The workflow's `delegation`, when it declares one. */
export function delegationOf(workflow: WorkflowDefinition): WorkflowDelegation | undefined {
  return workflow.delegation;
}

/** The view's delegation: set when the reader acts for the document's holder. */
export function viewDelegation(
  document: DocumentView | null | undefined,
): DocumentDelegationView | undefined {
  return document?.delegation;
}

/**
 * The sections a delegate may fill in: the screen's editable ones without those holding a
 * holder-only pointer. The form engine makes its non-editable sections read-only; a pointer into
 * a section (`/declarations/consent`) closes the whole section, as the form edits by section.
 */
export function withoutHolderOnly(
  editable: readonly string[] | 'all',
  sectionIds: readonly string[],
  holderOnly: readonly string[],
): readonly string[] | 'all' {
  if (holderOnly.length === 0) return editable;
  const closed = new Set(holderOnly.map((pointer) => pointer.split('/')[1] ?? ''));
  return (editable === 'all' ? sectionIds : editable).filter((id) => !closed.has(id));
}

/** The grants' words joined as a list the language reads ("fill in and submit"). */
export function grantsInWords(
  grants: readonly string[],
  labelOf: (grant: string) => string,
  language: string,
): string {
  const words = grants.map(labelOf);
  return new Intl.ListFormat(language, { style: 'long', type: 'conjunction' }).format(words);
}
