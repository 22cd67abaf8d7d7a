import { RETENTION_HOLDS, RETENTION_MANAGE_ROLE } from '../../core/retention/plan';
import { RETENTION_ACTIONS } from '../../core/definitions/shapes/retention';
import {
  arrayOf,
  DATE_TIME,
  NULLABLE_DATE_TIME,
  NULLABLE_STRING,
  objectSchema,
  PROBLEM_RESPONSES,
  UUID_STRING,
  type ContractSchema,
} from './common';

/** The retention routes in the contract (docs/retention.md). */

const WHO = `For holders of \`${RETENTION_MANAGE_ROLE}\` (403 otherwise).`;

const ITEM = objectSchema(
  ['documentId', 'type', 'number', 'status', 'due', 'action', 'fields', 'uploads'],
  {
    documentId: UUID_STRING,
    type: { type: 'string', description: "The document's workflow" },
    number: NULLABLE_STRING,
    status: { type: 'string' },
    due: { ...DATE_TIME, description: 'When its period ended' },
    action: { type: 'string', enum: [...RETENTION_ACTIONS] },
    fields: arrayOf({ type: 'string', description: 'A personal field cleared (JSON pointer)' }),
    uploads: arrayOf({ ...UUID_STRING, description: 'An upload deleted' }),
    held: arrayOf({
      type: 'string',
      enum: [...RETENTION_HOLDS],
      description: 'Why it is kept for now; absent when it goes',
    }),
  },
);

export const RETENTION_PLAN = objectSchema(['at', 'digest', 'items'], {
  at: DATE_TIME,
  digest: { type: 'string', description: 'Give it to the run: it does this plan or nothing' },
  items: arrayOf(ITEM),
});

const RUN_RESULT = objectSchema(['runId', 'at', 'digest', 'done', 'held', 'skipped'], {
  runId: UUID_STRING,
  at: DATE_TIME,
  digest: { type: 'string' },
  done: arrayOf(ITEM),
  held: { type: 'integer', description: 'Lines of the plan held, left alone' },
  skipped: arrayOf(
    objectSchema(['documentId', 'reason'], {
      documentId: UUID_STRING,
      reason: {
        type: 'string',
        enum: ['gone', 'changed'],
        description: 'Cleared meanwhile, or changed since the plan',
      },
    }),
  ),
});

const RUNS = objectSchema(['items'], {
  items: arrayOf(
    objectSchema(['id', 'at', 'startedAt', 'finishedAt', 'actorName', 'done', 'held', 'skipped'], {
      id: UUID_STRING,
      at: DATE_TIME,
      startedAt: DATE_TIME,
      finishedAt: NULLABLE_DATE_TIME,
      actorName: { type: 'string' },
      done: { type: 'integer' },
      held: { type: 'integer' },
      skipped: { type: 'integer' },
    }),
  ),
});

const AT: ContractSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    at: {
      type: 'string',
      maxLength: 40,
      description: 'An ISO date or date-time; now by default. A later one shows what will be due',
    },
  },
};

export const RETENTION_ROUTES = {
  plan: {
    schema: {
      tags: ['retention'],
      summary:
        'The retention dry run: what would be erased or anonymised at an instant, and what is held',
      description: WHO,
      querystring: AT,
      response: { 200: RETENTION_PLAN, ...PROBLEM_RESPONSES },
    },
  },
  run: {
    schema: {
      tags: ['retention'],
      summary: 'Runs the plan shown: the lines not held, each audited; 409 if the plan changed',
      description: `${WHO} \`at\` may not be later than now.`,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['at', 'digest'],
        properties: {
          at: { type: 'string', maxLength: 40, description: 'The plan’s `at`' },
          digest: { type: 'string', maxLength: 64, description: 'The plan’s `digest`' },
        },
      },
      response: { 200: RUN_RESULT, ...PROBLEM_RESPONSES },
    },
  },
  runs: {
    schema: {
      tags: ['retention'],
      summary: 'The latest retention runs, newest first',
      description: WHO,
      response: { 200: RUNS, ...PROBLEM_RESPONSES },
    },
  },
};
