import type { FastifyInstance } from 'fastify';
import { AUDIT_ROLES } from '../../core/definitions/audit-roles';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import {
  arrayOf,
  DATE_TIME,
  NULLABLE_STRING,
  objectSchema,
  PROBLEM_RESPONSES,
} from '../api-contract/common';
import { auditCsv, AUDIT_CSV_MAX_LINES } from '../audit/csv';
import { AUDIT_KINDS, requestOrigin, type AuditLog } from '../audit/log';
import { AUDIT_PAGE_MAX, type AuditQuery, type AuditSearch } from '../audit/search';
import { requireAnyRole } from '../auth/plugin';
import { requestLanguage } from '../http/language';

export interface AuditPluginOptions {
  search: AuditSearch;
  audit: AuditLog;
  /** The service's texts: the CSV says kinds and actions in words beside their codes. */
  texts: Partial<Record<Language, TextTree>>;
}

const FILTERS = {
  person: {
    type: 'string',
    maxLength: 200,
    description: "Who did it: an account's login, its id, or a piece of a name",
  },
  document: { type: 'string', maxLength: 200, description: "A document's number or id" },
  kind: { type: 'string', enum: [...AUDIT_KINDS] },
  from: {
    type: 'string',
    maxLength: 40,
    description: 'From this day (YYYY-MM-DD, UTC) or instant (ISO 8601)',
  },
  to: {
    type: 'string',
    maxLength: 40,
    description: 'To this day, included (YYYY-MM-DD, UTC), or before this instant (ISO 8601)',
  },
} as const;

const LINE = objectSchema(['id', 'at', 'kind', 'action', 'actor', 'actorName'], {
  id: { type: 'string' },
  at: DATE_TIME,
  kind: { type: 'string', enum: [...AUDIT_KINDS] },
  action: { type: 'string', description: 'Worded by the texts `audit.actions.<action>`' },
  actor: { type: 'string' },
  actorName: { type: 'string' },
  documentId: NULLABLE_STRING,
  documentType: NULLABLE_STRING,
  documentNumber: NULLABLE_STRING,
  target: NULLABLE_STRING,
  route: NULLABLE_STRING,
  screen: NULLABLE_STRING,
  addressClass: NULLABLE_STRING,
  detail: { type: ['object', 'null'], additionalProperties: true },
});

/**
 * The audit search (docs/audit.md): the trail's lines with the documents' history, the
 * definition sets published and the catalogues' changes, for the role `audit-read`; and the same
 * as CSV, whose export is itself a line of the trail.
 */
export async function auditPlugin(app: FastifyInstance, options: AuditPluginOptions) {
  const { search, audit } = options;

  app.get<{ Querystring: AuditQuery }>(
    '/events',
    {
      schema: {
        tags: ['audit'],
        summary: 'Audit lines, newest first, filtered by person, document, kind and period',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...FILTERS,
            cursor: { type: 'string', maxLength: 400, description: "The previous page's `next`" },
            limit: { type: 'integer', minimum: 1, maximum: AUDIT_PAGE_MAX },
          },
        },
        response: {
          200: {
            description: 'A page of lines; `next` names the following page, if any',
            ...objectSchema(['items'], { items: arrayOf(LINE), next: { type: 'string' } }),
          },
          ...PROBLEM_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      requireAnyRole(request, AUDIT_ROLES);
      const page = await search.search(request.query);
      return reply.header('cache-control', 'private, no-store').send(page);
    },
  );

  app.get<{ Querystring: AuditQuery }>(
    '/events.csv',
    {
      schema: {
        tags: ['audit'],
        summary: `The same lines as CSV (UTF-8 with BOM, a header row; at most ${AUDIT_CSV_MAX_LINES}); the export is recorded`,
        querystring: { type: 'object', additionalProperties: false, properties: FILTERS },
        response: {
          200: {
            description: 'The CSV file',
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          ...PROBLEM_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const principal = requireAnyRole(request, AUDIT_ROLES);
      const language = requestLanguage(request);
      const { text, lines } = await auditCsv(
        search.all(request.query, AUDIT_CSV_MAX_LINES),
        (key) => translate(options.texts, language, key),
      );
      // Written before the file leaves: an export not recorded is not sent.
      await audit.recordNow([
        {
          ...requestOrigin(request, principal),
          kind: 'export',
          action: 'audit.export',
          detail: { filters: { ...request.query }, lines },
        },
      ]);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${day}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(text);
    },
  );
}
