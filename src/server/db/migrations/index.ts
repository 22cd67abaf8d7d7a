import type { Migration, MigrationProvider } from 'kysely';
import * as catalogEntries from './0001_catalog_entries';
import * as documents from './0002_documents';
import * as identity from './0003_identity';
import * as connectid from './0004_connectid';
import * as notifications from './0005_notifications';
import * as documentCreated from './0006_document_created';
import * as inbox from './0007_inbox';
import * as payments from './0008_payments';
import * as documentMedia from './0009_document_media';
import * as outboxLanguage from './0010_outbox_language';
import * as declaredKeyIndexes from './0011_declared_key_indexes';
import * as inboxMessages from './0012_inbox_messages';
import * as serviceCredentials from './0013_service_credentials';
import * as totpLastStep from './0014_totp_last_step';
import * as revokedSessions from './0015_revoked_sessions';
import * as attemptThrottle from './0016_attempt_throttle';
import * as rateLimitsAndProcesses from './0017_rate_limits_and_processes';
import * as changeNotices from './0018_change_notices';
import * as listIndexes from './0019_list_indexes';
import * as definitionSets from './0020_definition_sets';
import * as outboxCode from './0021_outbox_code';
import * as catalogEntryHistory from './0022_catalog_entry_history';
import * as documentTimers from './0023_document_timers';
import * as documentRequests from './0024_document_requests';
import * as caseNotesAndFlags from './0025_case_notes_and_flags';
import * as screeningHits from './0026_screening_hits';
import * as paymentRefunds from './0027_payment_refunds';
import * as refundDecisions from './0028_refund_decisions';
import * as paymentSettlements from './0030_payment_settlements';
import * as payerConsents from './0031_payer_consents';
import * as shareCodes from './0032_share_codes';
import * as documentDelegations from './0033_document_delegations';
import * as auditEvent from './0034_audit_event';
import * as accountSessions from './0035_account_sessions';
import * as passkeys from './0036_passkeys';
import * as retention from './0038_retention';

/**
 * Migrations in order, listed here rather than discovered on disk so the same list runs
 * under tsx, in a bundle and in tests. Both dialects (PGlite, PostgreSQL) run the same files.
 */
const migrations: Record<string, Migration> = {
  '0001_catalog_entries': catalogEntries,
  '0002_documents': documents,
  '0003_identity': identity,
  '0004_connectid': connectid,
  '0005_notifications': notifications,
  '0006_document_created': documentCreated,
  '0007_inbox': inbox,
  '0008_payments': payments,
  '0009_document_media': documentMedia,
  '0010_outbox_language': outboxLanguage,
  '0011_declared_key_indexes': declaredKeyIndexes,
  '0012_inbox_messages': inboxMessages,
  '0013_service_credentials': serviceCredentials,
  '0014_totp_last_step': totpLastStep,
  '0015_revoked_sessions': revokedSessions,
  '0016_attempt_throttle': attemptThrottle,
  '0017_rate_limits_and_processes': rateLimitsAndProcesses,
  '0018_change_notices': changeNotices,
  '0019_list_indexes': listIndexes,
  '0020_definition_sets': definitionSets,
  '0021_outbox_code': outboxCode,
  '0022_catalog_entry_history': catalogEntryHistory,
  '0023_document_timers': documentTimers,
  '0024_document_requests': documentRequests,
  '0025_case_notes_and_flags': caseNotesAndFlags,
  '0026_screening_hits': screeningHits,
  '0027_payment_refunds': paymentRefunds,
  '0028_refund_decisions': refundDecisions,
  '0030_payment_settlements': paymentSettlements,
  '0031_payer_consents': payerConsents,
  '0032_share_codes': shareCodes,
  '0033_document_delegations': documentDelegations,
  '0034_audit_event': auditEvent,
  '0035_account_sessions': accountSessions,
  '0036_passkeys': passkeys,
  '0038_retention': retention,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
