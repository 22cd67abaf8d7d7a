/** Documents as the evisa API returns them (docs/api.md, "Documents"). */
import type { RequestAnswerInput, RequestItemInput, RequestRoundView } from './requests';
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
  /** The open request for information, or the last one (a workflow declaring `requests`). */
  requests?: RequestRoundView;
  /** The timers the document waits on in its status (docs/workflows.md, "Timers"), soonest first. */
  timers?: PendingTimer[];
  /** The caller reads the document as a delegate of its holder (docs/delegation.md). */
  delegation?: DocumentDelegationView;
}

/** What a delegate reading a document is told of the delegation they hold. */
export interface DocumentDelegationView {
  holderName: string;
  /** The ids of the grants given (the workflow's `delegation.grants`). */
  grants: string[];
  /** The data pointers only the holder may change. */
  holderOnly: string[];
}

export interface DocumentSummary extends DocumentHead {
  /** The assignee's name, in a list that shows it (a column `assigneeName`). */
  assigneeName?: string | null;
  /** Whether screening found a hit, in a list that shows it (a column `screeningHit`). */
  screeningHit?: boolean;
  /** The value of the workflow's `key` (an account's login), the routes' name for it. */
  key?: string | null;
  /** The document's flags, to its officers in a list showing them (a column `flags`). */
  flags?: string[];
  /** The list's data columns, by field name. */
  fields: Record<string, unknown>;
}

/** A hit of screening against a block catalogue, as the officers who see the document read it. */
export interface ScreeningHit {
  id: string;
  /** The catalogue's id and, in the reader's language, its title. */
  catalog: string;
  catalogTitle: string;
  entryKey: string;
  /** The entry's reason, in the reader's language when translated. */
  reason: string | null;
  /** Entry field -> the document's value it equals. */
  matched: Record<string, string>;
  action: string;
  /** `refused`: the action was refused; `flagged`: a block written after the submission. */
  outcome: 'refused' | 'flagged';
  at: string;
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
  /** On a reassignment's line, the officer it was taken from (its notes say why). */
  assignedFrom?: string;
  /** On a line a delegate wrote, the name of the holder they acted for (docs/delegation.md). */
  onBehalfOf?: string;
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
  /** Items an action opening a request for information asks for. */
  requests?: RequestItemInput[];
  /** Answers an action answering (or saving) it gives. */
  answers?: RequestAnswerInput[];
}

/** Body of `POST /api/evisa/{type}` (store, or drop on someone's behalf). */
export interface CreateRequest<TData = Record<string, unknown>> {
  action?: string;
  data: TData;
  notes?: string;
  /** Sign-in name of the person the document is made for, for an action made `onBehalf`. */
  owner?: string;
  /** For a workflow's `renewal.start` action: the id of the document renewed. */
  from?: string;
}

export interface MediaReference {
  id: string;
  name: string;
  size: number;
  type: string;
}
