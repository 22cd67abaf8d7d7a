import { REFUND_REASONS, REFUND_STATUSES } from '../../core/payments/refunds';
import {
  arrayOf,
  DATE_TIME,
  NULLABLE_DATE_TIME,
  NULLABLE_STRING,
  objectSchema,
  UUID_STRING,
  type ContractSchema,
} from './common';

// The refunds' answers and bodies (docs/payments.md, "Refunds"): the routes' schemas and the
// contract's per-workflow paths share them.

/** A refund as the API answers it (core/payments/refunds.ts, RefundView). */
export const REFUND_VIEW: ContractSchema = objectSchema(
  ['id', 'refundNumber', 'status', 'method', 'amount', 'currency', 'reason'],
  {
    id: UUID_STRING,
    refundNumber: { type: 'string', description: 'RF-<year>-<serial>' },
    documentType: { type: 'string' },
    documentId: UUID_STRING,
    documentNumber: NULLABLE_STRING,
    status: { type: 'string', enum: [...REFUND_STATUSES] },
    method: { type: 'string', enum: ['card', 'transfer'] },
    amount: { type: 'string', description: 'Decimal, two places' },
    currency: { type: 'string' },
    reason: { type: 'string', enum: [...REFUND_REASONS] },
    note: NULLABLE_STRING,
    requestedAt: DATE_TIME,
    decidedAt: NULLABLE_DATE_TIME,
    decisionReason: NULLABLE_STRING,
    completedAt: NULLABLE_DATE_TIME,
    transferReference: NULLABLE_STRING,
    requestedByMe: { type: 'boolean', description: 'The caller asked for it (may not approve it)' },
  },
);

const NULLABLE_DECIMAL = { type: ['string', 'null'] } as const;

/** A document's refunds, what is left, and what the caller may do. */
export const DOCUMENT_REFUNDS: ContractSchema = objectSchema(['refunds'], {
  refunds: arrayOf(REFUND_VIEW),
  paid: NULLABLE_DECIMAL,
  refunded: { type: 'string' },
  available: { type: 'string' },
  currency: NULLABLE_STRING,
  method: { type: ['string', 'null'] },
  approvalAbove: NULLABLE_DECIMAL,
  canRequest: { type: 'boolean' },
  canApprove: { type: 'boolean' },
});

/** The body opening a refund by hand. */
export const REFUND_REQUEST_BODY: ContractSchema = {
  ...objectSchema(['amount', 'reason'], {
    amount: { type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,2})?$', description: '"10.00"' },
    reason: { type: 'string', enum: [...REFUND_REASONS] },
    note: { type: 'string', maxLength: 2000 },
    idempotencyKey: { type: 'string', minLength: 8, maxLength: 100 },
  }),
  additionalProperties: false,
};

export const DECISION_BODY: ContractSchema = {
  ...objectSchema(['reason'], { reason: { type: 'string', minLength: 1, maxLength: 2000 } }),
  additionalProperties: false,
};

export const TRANSFER_BODY: ContractSchema = {
  ...objectSchema(['reference'], { reference: { type: 'string', minLength: 1, maxLength: 100 } }),
  additionalProperties: false,
};
