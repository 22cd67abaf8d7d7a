/**
 * Delegated access as the portal reads it (docs/delegation.md, "In the portal"): the answers of
 * the delegation routes and what a document screen makes of a workflow's `delegation` keyword.
 * Module-neutral: the grants, their words and the holder's own fields come from the definitions.
 */
import type { DocumentView } from '../../core/documents/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';

/** A grant of the workflow's `delegation`: the owner actions it lets a delegate take. */
export interface DelegationGrant {
  id: string;
  /** A text key, in the reader's language through `t`. */
  label: string;
  actions?: string[];
}

/** The workflow's `delegation` keyword, as far as the portal needs it. */
export interface DelegationDefinition {
  grants: DelegationGrant[];
  holderOnly: string[];
  maxDays?: number;
}

/** One delegation a holder gave (`Delegation` of the API). */
export interface Delegation {
  id: string;
  type: string;
  /** Null: every document of the type the holder has, now and later. */
  documentId: string | null;
  documentNumber: string | null;
  /** The sign-in name or e-mail address the holder gave. */
  delegate: string;
  grants: string[];
  /** `YYYY-MM-DD`, the last day, or null: until revoked. */
  until: string | null;
  createdAt: string;
  revokedAt: string | null;
  state: 'active' | 'expired' | 'revoked';
}

/** `GET /{type}/delegations`: all the holder's delegations of the type, and what may be granted. */
export interface HolderDelegations {
  items: Delegation[];
  grants: Array<{ id: string; label: string }>;
  maxDays: number | null;
}

/** What a document's view tells its delegate (absent for the holder and officers). */
export interface DelegationOfView {
  holderName: string;
  grants: string[];
  holderOnly: string[];
}

/** `POST /{type}/delegations`'s body. */
export interface NewDelegation {
  delegate: string;
  documentId?: string;
  grants: string[];
  until?: string;
}

/** The workflow's `delegation`, when it declares one. */
export function delegationOf(workflow: WorkflowDefinition): DelegationDefinition | undefined {
  return (workflow as WorkflowDefinition & { delegation?: DelegationDefinition }).delegation;
}

/** The view's delegation: set when the reader acts for the document's holder. */
export function viewDelegation(
  document: DocumentView | null | undefined,
): DelegationOfView | undefined {
  return (document as (DocumentView & { delegation?: DelegationOfView }) | null | undefined)
    ?.delegation;
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
