/** Answers of the dashboard endpoints (docs/api.md, "Dashboard and home page"), shared with the server. */

/** Roles that open the dashboard pages and their endpoints (specification 000, section 2). */
export { PROFILE_ROLES as DASHBOARD_ROLES } from '../definitions/routes';

/** One document of My Library: a document the caller owns, of any evisa workflow. */
export interface LibraryRow {
  /** Id of the workflow the document follows (its route prefix and screens). */
  workflow: string;
  /** Id of the document's entity schema; `<documentType>._title` is its translated name. */
  documentType: string;
  id: string;
  /** Reference number allocated by the workflow, once allocated. */
  number: string | null;
  /** The header's reference (`/header/reference`, e.g. the visa number once issued), if any. */
  reference: string | null;
  status: string;
  updatedAt: string;
  submittedAt: string | null;
  /** A document the caller may act on as a delegate of its holder (docs/delegation.md). */
  delegated?: true;
  /** On a delegated row, the holder's name. */
  holderName?: string | null;
}

/** Why a document is one of the caller's tasks: assigned, queued, or their own awaiting them. */
export type TaskReason = 'assigned' | 'queue' | 'owner';

/** One row of My Tasks: assigned to the caller, or waiting unassigned in a queue they serve. */
export interface TaskRow extends LibraryRow {
  assignee: string | null;
  reason: TaskReason;
  /** The unassigned list (of the workflow) the document waits in; null for assigned rows. */
  list: string | null;
}

/** `GET /api/evisa/statistics/{workflow}`: counts by creation date, zero-filled months. */
export interface WorkflowStatistics {
  year: number;
  /** Documents created in `year`, per status (statuses with none are left out). */
  byStatus: Array<{ status: string; count: number }>;
  /** The last six calendar months, oldest first, the current one last; `month` is `YYYY-MM`. */
  months: Array<{ month: string; count: number }>;
}

/** Where today stands against a genuine document's period. */
export type DocumentValidity = 'inForce' | 'notYetInForce' | 'expired';

/** A genuine electronic document: what it is and whether it is in force, nothing personal. */
export interface VerificationResult {
  number: string;
  documentType: string;
  validFrom: string | null;
  validUntil: string | null;
  validity: DocumentValidity;
  /** In force today: `validity` is `inForce`. */
  valid: boolean;
}
