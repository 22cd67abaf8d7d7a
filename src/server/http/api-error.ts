import type { SchemaError } from '../../core/validation/field-errors';

/** A field's problem before translation: where, which rule, and the rule's parameters. */
export interface FieldProblem {
  path: string;
  rule: string;
  params?: Record<string, unknown>;
}

/** Schema errors (Ajv's, or a route schema's) as field problems. */
export const problemsOf = (errors: readonly SchemaError[]): FieldProblem[] =>
  errors.map((e) => ({ path: e.instancePath, rule: e.keyword, params: e.params }));

/** Field problems as the schema errors `toFieldErrors` words, their parameters as `words` says. */
export const schemaErrorsOf = (
  problems: readonly FieldProblem[],
  words: (params?: Record<string, unknown>) => Record<string, unknown> = (params) => params ?? {},
): SchemaError[] =>
  problems.map((p) => ({ instancePath: p.path, keyword: p.rule, params: words(p.params) }));

/**
 * An error the API answers with: an HTTP status, a stable code, and a translation key for its
 * message. Thrown anywhere in a request; the error handler translates and sends it.
 * The key is `errors.<code>` unless `messageKey` names one in a module's own texts
 * (translations/<lang>/<namespace>.json).
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly params: Record<string, unknown> = {},
    readonly fields?: FieldProblem[],
    readonly messageKey?: string,
    /** More of the answer's `error`, sent as given (the definition problems of a publish). */
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
    this.name = 'ApiProblem';
  }
}

/** Stable error codes; the message for each is `errors.<code>` in translations/. */
export const ERROR_CODES = {
  invalidJson: 'INVALID_JSON',
  validationFailed: 'VALIDATION_FAILED',
  unknownField: 'UNKNOWN_FIELD',
  unknownCriterion: 'UNKNOWN_CRITERION',
  /** A page asked by number past the rows a search may skip (SEARCH_MAX_OFFSET). */
  pageTooDeep: 'PAGE_TOO_DEEP',
  notSignedIn: 'NOT_SIGNED_IN',
  invalidToken: 'INVALID_TOKEN',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  staleVersion: 'STALE_VERSION',
  staleDefinitions: 'STALE_DEFINITIONS',
  invalidDefinitions: 'INVALID_DEFINITIONS',
  actionNotAllowed: 'ACTION_NOT_ALLOWED',
  linkNotAllowed: 'LINK_NOT_ALLOWED',
  notOwner: 'NOT_OWNER',
  separationOfDuties: 'SEPARATION_OF_DUTIES',
  overlappingPeriod: 'OVERLAPPING_PERIOD',
  tooLarge: 'PAYLOAD_TOO_LARGE',
  tooManyRequests: 'TOO_MANY_REQUESTS',
  internal: 'INTERNAL_ERROR',
  nothingToPay: 'NOTHING_TO_PAY',
  paymentRefused: 'PAYMENT_NOTIFICATION_REFUSED',
  paymentNotStarted: 'PAYMENT_NOT_STARTED',
  settingMissing: 'SETTING_MISSING',
  requestsMissing: 'REQUESTS_MISSING',
  requestsClosed: 'REQUESTS_CLOSED',
  /** Screening against the block catalogues refused the action (neutral: says nothing of them). */
  screeningRefused: 'SCREENING_REFUSED',
  /** Refunds (docs/payments.md, "Refunds"). */
  refundNotPossible: 'REFUND_NOT_POSSIBLE',
  refundOpen: 'REFUND_OPEN',
  refundExceedsPaid: 'REFUND_EXCEEDS_PAID',
  refundNotPending: 'REFUND_NOT_PENDING',
  refundOwnApproval: 'REFUND_OWN_APPROVAL',
  refundNotRequested: 'REFUND_NOT_REQUESTED',
  refundNotificationForged: 'REFUND_NOTIFICATION_FORGED',
  /** A withdrawal's refund could not be opened (another refund of the document is open). */
  refundNotOpened: 'REFUND_NOT_OPENED',
  /** A document of another holder who has not named the caller as its payer (403). */
  payerNotNamed: 'PAYER_NOT_NAMED',
  /** Who may pay the document can no longer change: it is paid, or on a payer's document (409). */
  payerConsentClosed: 'PAYER_CONSENT_CLOSED',
  /** The document is in no status of its workflow's `shareCodes`: no code can be made (409). */
  shareCodesClosed: 'SHARE_CODES_CLOSED',
  /** A share code unknown, expired, revoked or with a wrong detail: one answer for all (404). */
  shareCodeNotVerified: 'SHARE_CODE_NOT_VERIFIED',
  /** A delegate asked for an action their delegation does not grant (403). */
  delegationNotGranted: 'DELEGATION_NOT_GRANTED',
  /** The caller's delegation of the document was revoked or ran out (403). */
  delegationEnded: 'DELEGATION_ENDED',
  /** A delegate changed what only the document's holder may change (403). */
  holderOnly: 'HOLDER_ONLY',
  /** A passkey's registration or proof refused: another origin, a used challenge, a bad answer. */
  passkeyNotVerified: 'PASSKEY_NOT_VERIFIED',
  /** The retention plan changed since it was shown: show it again before running it (409). */
  retentionPlanChanged: 'RETENTION_PLAN_CHANGED',
  /** A retention run asked for an instant still to come: only what is due now may go (400). */
  retentionNotYet: 'RETENTION_NOT_YET',
} as const;
