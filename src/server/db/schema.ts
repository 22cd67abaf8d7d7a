import type { ColumnType, Generated } from 'kysely';
import type { FieldChange } from '../../core/definitions/catalog-entry';
import type { ChallengeTable } from '../notifications/rows';
import type { IdentityTables } from '../identity/rows';

/** Rows as Kysely sees them; one interface per table, kept beside the migrations. */
export interface CatalogEntryTable {
  id: Generated<string>;
  catalog: string;
  entry_key: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  start_time: ColumnType<Date, string, string>;
  end_time: ColumnType<Date | null, string | null, string | null>;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string;
  updated_at: Generated<Date>;
  updated_by: string;
  /** Set when a manager deleted the entry: it is hidden everywhere but may be restored. */
  deleted_at: ColumnType<Date | null, string | null | undefined, string | null>;
}

/** One edit, deletion or restoration of a catalogue entry (migration 0022). */
export interface CatalogEntryHistoryTable {
  id: Generated<string>;
  entry_id: string;
  version: number;
  action: 'updated' | 'deleted' | 'restored';
  changes: ColumnType<FieldChange[], string, string>;
  changed_at: Generated<Date>;
  changed_by: string;
}

/** An entry of a block catalogue a document matched at an action or later (migration 0026). */
export interface ScreeningHitTable {
  id: Generated<string>;
  document_type: string;
  document_id: string | null;
  catalog: string;
  entry_id: string;
  entry_key: string;
  entry: ColumnType<Record<string, unknown>, string, string>;
  matched: ColumnType<Record<string, string>, string, string>;
  action: string;
  outcome: 'refused' | 'flagged';
  actor: string;
  screened_at: ColumnType<Date, string, string>;
}

export type RefundStatus = 'PENDING_APPROVAL' | 'REQUESTED' | 'REFUNDED' | 'FAILED' | 'REJECTED';

/** Migration 0027: a refund of a paid document (docs/payments.md, "Refunds"). */
export interface PaymentRefundTable {
  id: Generated<string>;
  refund_number: string;
  document_type: string;
  document_id: string;
  order_id: string | null;
  method: 'card' | 'transfer';
  status: RefundStatus;
  currency: string;
  /** bigint: the driver returns it as a string. */
  amount_cents: ColumnType<string, number, number>;
  reason: string;
  note: string | null;
  idempotency_key: string | null;
  gateway: string | null;
  gateway_refund_id: string | null;
  requested_by: string;
  requested_at: Generated<Date>;
  decided_by: string | null;
  decided_at: ColumnType<Date | null, string | null, string | null>;
  completed_at: ColumnType<Date | null, string | null, string | null>;
  language: Generated<string>;
  /** Migration 0028: the approver's reason, the transfer's reference, when sent to the gateway. */
  decision_reason: string | null;
  transfer_reference: string | null;
  sent_at: ColumnType<Date | null, string | null, string | null>;
}

/** Migration 0028: a refund the sandbox gateway received (its own table, as its sessions). */
export interface SandboxGatewayRefundTable {
  id: string;
  session_id: string;
  refund_reference: string;
  idempotency_key: string;
  amount_cents: ColumnType<string, number, number>;
  currency: string;
  notify_url: string;
  outcome: Generated<string>;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, string | undefined, string>;
}

/** Who a document's holder named as its payer (migration 0031; docs/payments.md). */
export interface PayerConsentTable {
  id: Generated<string>;
  document_type: string;
  document_id: string;
  payer: string;
  payer_name: string;
  payer_login: string | null;
  granted_by: string;
  granted_by_name: string;
  granted_at: ColumnType<Date, string | undefined, string>;
  revoked_at: ColumnType<Date | null, string | null | undefined, string | null>;
  revoked_by: string | null;
}

/** A code the holder gives a third party to check their status (migration 0032; docs/status-sharing.md). */
export interface ShareCodeTable {
  id: Generated<string>;
  document_type: string;
  document_id: string;
  /** HMAC-SHA-256 of the code's normalised text: the code itself is never kept. */
  code_hash: string;
  purpose: string;
  created_by: string;
  created_at: ColumnType<Date, string, never>;
  expires_at: ColumnType<Date, string, never>;
  revoked_at: ColumnType<Date | null, string | null | undefined, string | null>;
  failed_checks: ColumnType<number, number | undefined, number>;
  locked_until: ColumnType<Date | null, string | null | undefined, string | null>;
}

/** The key the codes are hashed under, made once per database (migration 0032). */
export interface ShareCodeKeyTable {
  id: number;
  secret: string;
}

/** One public check of a document: by share code, by number or by QR (migration 0032). */
export interface StatusCheckTable {
  id: Generated<string>;
  seq: Generated<string>;
  reference: string;
  document_type: string | null;
  document_id: string | null;
  share_code_id: string | null;
  method: string;
  purpose: string | null;
  address_class: string;
  result: string;
  checked_at: ColumnType<Date, string, never>;
}

/** Migration 0033: a holder's delegation of their documents (docs/delegation.md). */
export interface DocumentDelegationTable {
  id: Generated<string>;
  holder: string;
  holder_name: string;
  document_type: string;
  document_id: string | null;
  /** The delegate as named: a sign-in name or an e-mail address, lowercased. */
  delegate: string;
  grants: ColumnType<string[], string, string>;
  /** The last day it runs (inclusive), as YYYY-MM-DD; null: until revoked. */
  until: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, string | undefined, string>;
  revoked_at: ColumnType<Date | null, string | null | undefined, string | null>;
}

/** Migration 0030: one verification of a payment received by transfer (docs/payments.md, "Reconciling an invoice"). */
export interface PaymentSettlementTable {
  id: Generated<string>;
  document_type: string;
  document_id: string;
  document_number: string | null;
  method: string;
  round: number;
  outcome: 'SHORT' | 'EXACT' | 'OVER';
  currency: string;
  /** bigint: the driver returns it as a string. */
  due_cents: ColumnType<string, number, number>;
  received_cents: ColumnType<string, number, number>;
  bank_reference: string;
  /** The fee lines settled: `{ code: string | null, amount: "50.00" }`. */
  lines: ColumnType<unknown, string, string>;
  verified_by: string;
  verified_at: ColumnType<Date, string | undefined, string>;
}

export interface DocumentTable {
  id: Generated<string>;
  type: string;
  status: string;
  previous_status: string | null;
  version: number;
  owner: string;
  owner_name: string | null;
  owner_email: string | null;
  owner_mobile: string | null;
  assignee: string | null;
  number: string | null;
  year: number | null;
  serial: number | null;
  submitted_at: ColumnType<Date | null, string | null, string | null>;
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  created_by: string;
  updated_at: ColumnType<Date, string | undefined, string>;
  updated_by: string;
  /** The flags officers set on it (migration 0025); never shown to its owner. */
  flags: ColumnType<string[], string[] | undefined, string[]>;
  /** When retention erased or anonymised it (migration 0038; docs/retention.md), and how. */
  retained_at: ColumnType<Date | null, string | null | undefined, string | null>;
  retention_action: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An internal case note on a document (migration 0025): officers only. */
export interface DocumentCaseNoteTable {
  id: string;
  document_id: string;
  version: number;
  text: string;
  author: string;
  author_name: string;
  created_at: ColumnType<Date, string, never>;
  updated_at: ColumnType<Date, string, string>;
  updated_by: string;
  updated_by_name: string;
}

/** A text a case note's edit replaced, with who wrote it and when (migration 0025). */
export interface DocumentCaseNoteEditTable {
  id: Generated<string>;
  note_id: string;
  version: number;
  text: string;
  written_by: string;
  written_by_name: string;
  written_at: ColumnType<Date, string, never>;
}

export interface DocumentVersionTable {
  document_id: string;
  version: number;
  status: string;
  action: string;
  data: ColumnType<Record<string, unknown>, string, never>;
  assignee: string | null;
  at: Generated<Date>;
  by: string;
}

export interface DocumentHistoryTable {
  id: Generated<string>;
  document_id: string;
  version: number;
  action: string;
  from_status: string;
  to_status: string;
  at: Generated<Date>;
  notes: string | null;
  actor: string;
  actor_name: string;
  actor_email: string | null;
  actor_mobile: string | null;
  /** Migration 0033: the holder a delegate wrote this line for (docs/delegation.md). */
  on_behalf_of: ColumnType<string | null, string | null | undefined, string | null>;
  on_behalf_of_name: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface DocumentSequenceTable {
  type: string;
  year: number;
  last: number;
}

export interface OutboxTable {
  id: Generated<string>;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  document_id: string | null;
  /** The language the message was written in; none on messages older than the column. */
  language: string | null;
  /** The confirmation code the message carries (challenge/service.ts); none on any other. */
  code: string | null;
  status: Generated<string>;
  attempts: Generated<number>;
  attempt_at: Date | null;
  created_at: Generated<Date>;
}

export interface MediaTable {
  id: Generated<string>;
  owner: string;
  name: string;
  size: number;
  type: string;
  sha256: string;
  content: Buffer;
  created_at: Generated<Date>;
}

/** The uploads a document's data names, kept with every write (media-references.ts). */
export interface DocumentMediaTable {
  document_id: string;
  media_id: string;
}

/** The items of the requests for information asked of a document's owner (store/requests.ts). */
export interface DocumentRequestTable {
  id: Generated<string>;
  document_id: string;
  round: number;
  position: number;
  /** The status the round waits in. */
  status: string;
  question: string | null;
  opened_at: Date;
  opened_by: string;
  catalog: string | null;
  code: string | null;
  /** Language -> text, as chosen. */
  label: ColumnType<Record<string, string>, string, string>;
  kind: string;
  mandatory: boolean;
  /** YYYY-MM-DD (read as text: a date has no time zone). */
  due: ColumnType<string, string, string>;
  answer: string | null;
  media_id: string | null;
  answered_at: Date | null;
  answered_by: string | null;
  closed_at: Date | null;
}

export interface PaymentOrderTable {
  id: Generated<string>;
  document_id: string;
  document_type: string;
  order_reference: string;
  status: Generated<string>;
  currency: Generated<string>;
  /** bigint: the driver returns it as a string. */
  amount_cents: ColumnType<string, number, number>;
  items: ColumnType<unknown, string, string>;
  gateway: string | null;
  gateway_session: string | null;
  gateway_redirect_url: string | null;
  transaction_id: string | null;
  masked_card: string | null;
  amount_paid_cents: ColumnType<string | null, number | null, number | null>;
  receipt_reference: string | null;
  paid_at: ColumnType<Date | null, string | null, string | null>;
  created_by: string;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, string | undefined, string>;
}

export interface SandboxGatewaySessionTable {
  id: string;
  order_reference: string;
  amount_cents: ColumnType<string, number, number>;
  currency: string;
  description: string;
  return_url: string;
  notify_url: string;
  language: string;
  outcome: Generated<string>;
  transaction_id: string | null;
  masked_card: string | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, string | undefined, string>;
}

/** One line of the audit trail (migration 0034; docs/audit.md): append-only. */
export interface AuditEventTable {
  id: Generated<string>;
  at: ColumnType<Date, string | undefined, never>;
  /** The account's id (`sub`), or `system:<job>` for the service's own work. */
  actor: string;
  actor_name: string;
  kind: string;
  action: string;
  document_id: string | null;
  document_type: string | null;
  /** What else was read or changed: an upload's id, a catalogue, an account, a session. */
  target: string | null;
  /** The API operation (`GET /api/evisa/:type/:id`) that did it. */
  route: string | null;
  /** The portal screen that asked (the `X-Portal-Screen` header), when a screen did. */
  screen: string | null;
  address_class: string | null;
  detail: ColumnType<Record<string, unknown> | null, string | null, never>;
}

/** One retention run (migration 0038; docs/retention.md): the plan it did and what came of it. */
export interface RetentionRunTable {
  id: Generated<string>;
  /** The instant the plan was made for. */
  at: ColumnType<Date, string, never>;
  started_at: ColumnType<Date, string, never>;
  finished_at: ColumnType<Date | null, string | null | undefined, string | null>;
  actor: string;
  actor_name: string;
  digest: string;
  done: ColumnType<number, number | undefined, number>;
  held: ColumnType<number, number | undefined, number>;
  skipped: ColumnType<number, number | undefined, number>;
}

export interface DefinitionSetTable {
  version: number;
  /** Path -> the file's text (definitions/files.ts). */
  files: ColumnType<Record<string, string>, string, never>;
  digest: string;
  source: 'folder' | 'publish' | 'restore';
  note: string;
  published_by: string;
  published_at: Generated<Date>;
}

/**
 * The tables the server at large may query: the document tables only `documents/store/` adds
 * (store/tables.ts), the outbox only the notifications (notifications/tables.ts).
 */
export interface Database extends IdentityTables {
  catalog_entry: CatalogEntryTable;
  catalog_entry_history: CatalogEntryHistoryTable;
  challenge: ChallengeTable;
  media: MediaTable;
  payment_order: PaymentOrderTable;
  sandbox_gateway_session: SandboxGatewaySessionTable;
  definition_set: DefinitionSetTable;
  screening_hit: ScreeningHitTable;
  payment_refund: PaymentRefundTable;
  sandbox_gateway_refund: SandboxGatewayRefundTable;
  payer_consent: PayerConsentTable;
  payment_settlement: PaymentSettlementTable;
  share_code: ShareCodeTable;
  share_code_key: ShareCodeKeyTable;
  status_check: StatusCheckTable;
  document_delegation: DocumentDelegationTable;
  audit_event: AuditEventTable;
  retention_run: RetentionRunTable;
}
