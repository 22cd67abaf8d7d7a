import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { requireSignedIn } from '../auth/plugin';
import {
  arrayOf,
  DATE_TIME,
  NULLABLE_DATE_TIME,
  NULLABLE_STRING,
  objectSchema,
  PROBLEM_RESPONSES,
  searchRequestSchema,
  searchResultSchema,
  UUID_STRING,
} from '../api-contract/common';
import { latestMessages } from '../dashboard/inbox';
import { searchLibrary } from '../dashboard/library';
import { dashboardCaller } from '../dashboard/rows';
import { workflowStatistics } from '../dashboard/statistics';
import { searchTasks } from '../dashboard/tasks';
import { DocumentVerifier, notVerified } from '../dashboard/verification';
import type { Database } from '../db/schema';
import type { SearchLimits } from '../documents/store/lists';
import type { CompiledWorkflow } from '../documents/workflows';
import { limitPublicChecks } from '../http/public-check-limit';
import type { ShareCodeService } from '../documents/share-codes';
import type { AccountLookup } from '../documents/effect-context';
import type { AuditLog } from '../audit/log';
import { recordRead } from '../audit/reads';

export interface DashboardPluginOptions {
  db: Kysely<Database>;
  /** The workflows of the backend the routes are mounted on (evisa). */
  workflows: ReadonlyMap<string, CompiledWorkflow>;
  /** How much a search may return and how far it counts. */
  searchLimits: SearchLimits;
  /** Verification requests per client address and minute; 0: no limit. */
  verificationRateLimit: number;
  /** The check log every check by number or QR is written to (docs/status-sharing.md). */
  checks?: Pick<ShareCodeService, 'logVerification'>;
  /** Where accounts are found: My Library knows the caller as a delegate by them. */
  accounts?: AccountLookup;
  /** Where a page of My Tasks listing others' documents is recorded (docs/audit.md). */
  audit?: AuditLog;
}

/** Workflow ids whose document routes these fixed paths would hide. */
const RESERVED_IDS = ['statistics', 'verification'];

const LIBRARY_FIELDS = [
  'workflow',
  'documentType',
  'number',
  'reference',
  'status',
  'submittedAt',
  'createdAt',
  'updatedAt',
];
const LIBRARY_ROW = {
  workflow: { type: 'string' },
  documentType: { type: 'string' },
  id: UUID_STRING,
  number: NULLABLE_STRING,
  reference: NULLABLE_STRING,
  status: { type: 'string' },
  updatedAt: DATE_TIME,
  submittedAt: NULLABLE_DATE_TIME,
};
const COUNTS = (key: string) =>
  arrayOf(objectSchema([key, 'count'], { [key]: { type: 'string' }, count: { type: 'integer' } }));
const INBOX_MESSAGE = objectSchema([], {
  id: { type: 'string' },
  status: { type: 'string' },
  subject: { type: 'string' },
  body: { type: 'string' },
  language: NULLABLE_STRING,
  createdAt: DATE_TIME,
  about: {
    type: ['object', 'null'],
    additionalProperties: true,
    properties: {
      id: UUID_STRING,
      type: { type: 'string' },
      title: { type: 'string' },
      number: { type: 'string' },
      path: { type: 'string' },
    },
  },
});

/** A search of the caller's documents by `fields`, answering rows of `row`'s properties. */
function dashboardSearch(summary: string, fields: string[], row: Record<string, unknown>) {
  const response = { 200: searchResultSchema({ type: 'object', properties: row }) };
  return {
    schema: {
      tags: ['dashboard'],
      summary,
      description: `Fields: ${fields.join(', ')}.`,
      body: searchRequestSchema(undefined),
      response: { ...response, ...PROBLEM_RESPONSES },
    },
  };
}

/** My Library, My Tasks, the inbox, statistics and the public document check of evisa. */
export async function dashboardPlugin(app: FastifyInstance, options: DashboardPluginOptions) {
  const { db, workflows, searchLimits } = options;
  const hidden = RESERVED_IDS.filter((id) => workflows.has(id));
  if (hidden.length)
    throw new Error(`Workflow id(s) ${hidden.join(', ')} clash with routes of the dashboard`);
  const verifier = new DocumentVerifier(db, workflows.values());
  // Messages are the inbox's, not documents of a library or tasks of anyone's.
  const inbox = [...workflows.values()].find((w) => w.definition.inbox);
  const documents = new Map([...workflows].filter(([, w]) => w !== inbox));

  app.patch(
    '/dashboard/library',
    dashboardSearch(
      'My Library: the documents the caller owns or is a delegate for, across every evisa workflow',
      LIBRARY_FIELDS,
      { ...LIBRARY_ROW, delegated: { type: 'boolean' }, holderName: NULLABLE_STRING },
    ),
    async (request) =>
      searchLibrary(
        db,
        documents,
        dashboardCaller(request),
        request.body,
        searchLimits,
        options.accounts,
      ),
  );
  app.patch(
    '/dashboard/tasks',
    dashboardSearch(
      'My Tasks: assigned documents, queues the caller serves, own documents waiting',
      [...LIBRARY_FIELDS, 'assignee', 'reason', 'list'],
      {
        ...LIBRARY_ROW,
        assignee: NULLABLE_STRING,
        reason: { type: 'string', enum: ['assigned', 'queue', 'owner'] },
        list: NULLABLE_STRING,
      },
    ),
    async (request) => {
      const principal = dashboardCaller(request);
      const result = await searchTasks(db, documents, principal, request.body, searchLimits);
      // Queues and assignments list others' documents: a read of them (the caller's own are not).
      const others = result.items.filter((row) => row.reason !== 'owner').map((row) => row.id);
      if (others.length)
        recordRead(options.audit, request, principal, undefined, {
          action: 'search.page',
          detail: {
            list: 'tasks',
            page: result.page,
            itemsPerPage: result.itemsPerPage,
            ids: others,
          },
        });
      return result;
    },
  );
  app.get<{ Querystring: { limit?: number } }>(
    '/dashboard/inbox',
    {
      schema: {
        tags: ['dashboard'],
        summary: "The caller's newest inbox messages, unread first, and how many are unread",
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 50 } },
          additionalProperties: false,
        },
        response: {
          200: {
            description: 'Messages and the unread count',
            ...objectSchema([], {
              unread: { type: 'integer' },
              workflow: NULLABLE_STRING,
              items: arrayOf(INBOX_MESSAGE),
            }),
          },
          ...PROBLEM_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const principal = requireSignedIn(request);
      if (!inbox) return { unread: 0, workflow: null, items: [] };
      const answer = await latestMessages(db, inbox, principal, request.query.limit ?? 5);
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );
  app.get<{ Params: { workflowId: string } }>(
    '/statistics/:workflowId',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Counts of a workflow declaring `statistics`, by status and by month',
        params: objectSchema(['workflowId'], {
          workflowId: {
            type: 'string',
            description: 'A workflow declaring `statistics`; another is a 404',
            examples: [...workflows.values()]
              .filter((w) => w.definition.statistics)
              .map((w) => w.definition.id),
          },
        }),
        response: {
          200: {
            description: 'Counts by creation date',
            ...objectSchema([], {
              year: { type: 'integer' },
              byStatus: COUNTS('status'),
              months: COUNTS('month'),
            }),
          },
          ...PROBLEM_RESPONSES,
        },
      },
    },
    async (request) =>
      workflowStatistics(db, workflows.get(request.params.workflowId), requireSignedIn(request)),
  );

  // The public check answers about a secret: limited per client address, counted in the
  // database so every process counts together.
  const limited = await limitPublicChecks(app, db, options.verificationRateLimit);
  app.post(
    '/verification',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Public check of an electronic document (rate limited per client address)',
        // No `type`: a blank one is answered as missing (dashboard/verification.ts).
        body: objectSchema(['number', 'secondFactor'], {
          number: { maxLength: 50, description: 'Text' },
          secondFactor: { maxLength: 100, description: 'Text' },
          via: {
            enum: ['number', 'qr'],
            description: 'How the checker came: typed the number (default) or scanned the QR',
          },
        }),
        response: {
          200: {
            description:
              'The document is genuine (issued); nothing personal nor any internal status is returned',
            ...objectSchema([], {
              number: { type: 'string' },
              documentType: { type: 'string' },
              validFrom: NULLABLE_STRING,
              validUntil: NULLABLE_STRING,
              validity: { enum: ['inForce', 'notYetInForce', 'expired'] },
              valid: { type: 'boolean', description: 'In force today' },
            }),
          },
          ...PROBLEM_RESPONSES,
        },
      },
      config: limited,
    },
    async (request) => {
      const { answer, document } = await verifier.check(request.body);
      const via = (request.body as { via?: unknown } | null)?.via === 'qr' ? 'qr' : 'number';
      // Every check is logged for the holder of the document it named (docs/status-sharing.md).
      await options.checks?.logVerification(
        document,
        via,
        answer ? 'shown' : 'refused',
        request.ip,
      );
      if (!answer) throw notVerified();
      return answer;
    },
  );
}
