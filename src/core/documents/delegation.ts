/** Delegated access as the API answers it (docs/delegation.md). */

export type DelegationState = 'active' | 'expired' | 'revoked';

/** A delegation as its holder reads it. */
export interface Delegation {
  id: string;
  type: string;
  /** The document it covers; null: every document of the type the holder has, now and later. */
  documentId: string | null;
  documentNumber: string | null;
  /** The delegate as named: a sign-in name or an e-mail address, lowercased. */
  delegate: string;
  grants: string[];
  /** The last day it runs (YYYY-MM-DD, inclusive); null: until revoked. */
  until: string | null;
  createdAt: string;
  revokedAt: string | null;
  state: DelegationState;
}

/** `GET /api/{backend}/{type}/delegations`. */
export interface HolderDelegations {
  items: Delegation[];
  /** The grants the workflow offers; `label` is a text key. */
  grants: Array<{ id: string; label: string }>;
  maxDays: number | null;
}

/** A delegation the caller holds, as `GET /api/{backend}/delegations/received` answers it. */
export interface ReceivedDelegation {
  id: string;
  type: string;
  holderName: string;
  documentId: string | null;
  documentNumber: string | null;
  grants: string[];
  until: string | null;
}

/** `POST /api/{backend}/{type}/delegations`. */
export interface NewDelegation {
  delegate: string;
  documentId?: string;
  grants: string[];
  until?: string;
}
