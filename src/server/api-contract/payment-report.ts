import { FINANCE_ROLE, PAYMENT_REPORT_MAX_DAYS } from '../../core/payments/report';
import { arrayOf, objectSchema, PROBLEM_RESPONSES, type ContractSchema } from './common';

/** The payment report's routes in the contract (docs/payments.md, "The payment report"). */

const AMOUNT = {
  type: 'string',
  pattern: '^-?\\d+\\.\\d{2}$',
  description: 'A decimal string, two places',
} as const;

const AMOUNTS = {
  currency: { type: 'string', description: 'ISO 4217' },
  received: AMOUNT,
  refunded: AMOUNT,
  net: { ...AMOUNT, description: 'Received less refunded' },
  payments: { type: 'integer', description: 'Card orders approved and transfers settled' },
  refunds: { type: 'integer', description: 'Refunds completed' },
} as const;

const AMOUNT_FIELDS = Object.keys(AMOUNTS);

export const PAYMENT_REPORT = objectSchema(['from', 'to', 'days', 'methods', 'fees', 'totals'], {
  from: { type: 'string', format: 'date' },
  to: { type: 'string', format: 'date' },
  days: arrayOf(
    objectSchema(['day', ...AMOUNT_FIELDS], {
      day: { type: 'string', format: 'date', description: 'UTC' },
      ...AMOUNTS,
    }),
  ),
  methods: arrayOf(
    objectSchema(['method', 'label', ...AMOUNT_FIELDS], {
      method: { type: 'string', description: "`card`, or a workflow's `reconcile.method`" },
      label: { type: 'string', description: "In the request's language" },
      ...AMOUNTS,
    }),
  ),
  fees: arrayOf(
    objectSchema(['code', 'label', 'currency', 'received'], {
      code: { type: ['string', 'null'], description: 'Null: an excess received over what was due' },
      label: { type: 'string', description: "The fee's name in the request's language" },
      currency: { type: 'string' },
      received: AMOUNT,
    }),
  ),
  totals: arrayOf(objectSchema(AMOUNT_FIELDS, AMOUNTS)),
});

const RANGE: ContractSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    from: {
      type: 'string',
      maxLength: 10,
      description: 'YYYY-MM-DD; by default 30 days before `to`',
    },
    to: {
      type: 'string',
      maxLength: 10,
      description: 'YYYY-MM-DD, included; by default today (UTC)',
    },
  },
};

const WHO = `For holders of \`${FINANCE_ROLE}\` (403 otherwise). At most ${PAYMENT_REPORT_MAX_DAYS} days.`;

/** The route schemas: the JSON report and its CSV export. */
export const PAYMENT_REPORT_ROUTES = {
  json: {
    schema: {
      tags: ['payments'],
      summary: 'The payment report: receipts by day, method and fee code, refunds netted',
      description: WHO,
      querystring: RANGE,
      response: { 200: PAYMENT_REPORT, ...PROBLEM_RESPONSES },
    },
  },
  csv: {
    schema: {
      tags: ['payments'],
      summary: "The payment report as CSV, headers and names in the request's language",
      description: WHO,
      querystring: RANGE,
      response: {
        200: {
          description: 'The report as CSV (UTF-8, with a byte order mark)',
          content: { 'text/csv': { schema: { type: 'string' } } },
        },
        ...PROBLEM_RESPONSES,
      },
    },
  },
};
