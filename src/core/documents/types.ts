/** Documents as the evisa API returns them (docs/api.md, "Documents"). */
import type { PendingTimer } from './timers';

/** What a document and a row of its lists both show. */
interface DocumentHead {
  id: string;
  type: string;
  status: string;
  version: number;
  owner: string;
  ownerName: string | null;
  assignee: string | null;
  /** Reference number allocated by the workflow (e.g. VA-2026-000042), once allocated. */
  number: string | null;
  submittedAt: string | null;
  /** When the document was made (a message: when it was received). */
  createdAt: string;
  updatedAt: string;
}

export interface DocumentView<TData = Record<string, unknown>> extends DocumentHead {
  year: number | null;
  data: TData;
  createdBy: string;
  updatedBy: string;
  /** Actions the caller may take now: allowed by the machine in this state, by the caller's roles and ownership. */
  allowedActions: string[];
  /** The timers the document waits on in its status (docs/workflows.md, "Timers"), soonest first. */
  timers?: PendingTimer[];
}

export interface DocumentSummary extends DocumentHead {
  /** The assignee's name, in a list that shows it (a column `assigneeName`). */
  assigneeName?: string | null;
  /** The value of the workflow's `key` (an account's login), the routes' name for it. */
  key?: string | null;
  /** The list's data columns, by field name. */
  fields: Record<string, unknown>;
}

export interface VersionSummary {
  version: number;
  status: string;
  action: string;
  at: string;
  by: string;
}

export interface HistoryEntry {
  version: number;
  action: string;
  /** Status change, e.g. `STORED -> SUBMITTED`. */
  operation: string;
  at: string;
  notes: string | null;
  /** The service's own notes as a key and parameters, shown in the reader's language. */
  notesKey?: string;
  notesParams?: Record<string, string>;
  name: string;
  email: string | null;
  mobile: string | null;
  /** The officer an assigning action named, for readers who may know it. */
  assignedTo?: string;
}

/** Body of `POST /api/evisa/{type}/{id}/actions/{action}`. */
export interface ActionRequest<TData = Record<string, unknown>> {
  /** The version the caller read; a stale one is a 409. */
  version: number;
  data?: TData;
  notes?: string;
  assignee?: string;
  /** Sign-in name of the person the document is handed to, for an action made `onBehalf`. */
  owner?: string;
}

/** Body of `POST /api/evisa/{type}` (store, or drop on someone's behalf). */
export interface CreateRequest<TData = Record<string, unknown>> {
  action?: string;
  data: TData;
  notes?: string;
  /** Sign-in name of the person the document is made for, for an action made `onBehalf`. */
  owner?: string;
}

export interface MediaReference {
  id: string;
  name: string;
  size: number;
  type: string;
}
