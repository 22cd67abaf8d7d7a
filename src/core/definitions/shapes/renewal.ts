/** Documents that renew another, and documents named by others (docs/workflows.md, "Renewals"). */
import {
  choice,
  dataPointer,
  documentType,
  fieldName,
  record,
  relativePointer,
  some,
  STATUS_PATTERN,
  strict,
  textKey,
  Type,
  type Static,
} from './kit';
import { flagName } from './case-work';

const status = Type.String({ pattern: STATUS_PATTERN });
const actionName = Type.String({ pattern: '^[a-z][a-zA-Z-]*$' });

/**
 * A document of this type renewing another of the same type: started from the renewed one (its
 * sections copied, its reference kept in `link`), and moving it with its actions (`fires`).
 */
export const WorkflowRenewal = strict({
  /** The creation action starting a renewal, given the renewed document's id (`from`). */
  start: actionName,
  /** The statuses a document may be renewed from (its owner only). */
  statuses: some(status, { uniqueItems: true }),
  /** The field of the renewal holding what it renews: the renewed document's `by`. */
  link: dataPointer,
  /** The renewed document's field named (its reference); its number without it. */
  by: Type.Optional(dataPointer),
  /** The sections of the renewed document the renewal starts with. */
  copy: some(fieldName, { uniqueItems: true }),
  /** Action of the renewal -> system action fired on the renewed document (a grant -> extend). */
  fires: record(actionName, { minProperties: 1, propertyNames: { pattern: '^[a-z][a-zA-Z-]*$' } }),
  /** Text written in the renewed document's history, with {{number}} the renewal's. */
  note: textKey,
  /** The button starting a renewal on the renewed document's screen, and its confirmation. */
  button: textKey,
  confirm: textKey,
});
export type WorkflowRenewal = Static<typeof WorkflowRenewal>;

/** A column of the documents naming this one: a header value or a field of theirs. */
export const ReferringColumn = strict({
  field: Type.Optional(choice(['number', 'status', 'submittedAt', 'updatedAt'])),
  /** A field of the referring type's data (check-referenced-by.ts). */
  pointer: Type.Optional(relativePointer),
  label: textKey,
});
export type ReferringColumn = Static<typeof ReferringColumn>;

/**
 * Documents of another type naming this one in a field: listed on this one's screen for its
 * owner and officers, and flagged by the `flagReferring` effect.
 */
export const WorkflowReferencedBy = strict({
  /** The referring document type. */
  type: documentType,
  /** Its field holding this document's `by` (check-referenced-by.ts). */
  pointer: relativePointer,
  /** This document's field they name (its reference); its number without it. */
  by: Type.Optional(dataPointer),
  /** The table's title. */
  label: textKey,
  columns: some(ReferringColumn),
  /** What `flagReferring` sets on those in `statuses`: a flag the referring workflow declares. */
  flag: Type.Optional(strict({ name: flagName, statuses: some(status, { uniqueItems: true }) })),
});
export type WorkflowReferencedBy = Static<typeof WorkflowReferencedBy>;

export const WorkflowReferencedByAll = record(WorkflowReferencedBy, {
  minProperties: 1,
  propertyNames: { pattern: '^[a-z][a-zA-Z0-9]*$' },
});
