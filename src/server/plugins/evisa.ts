import { isStoredPositiveInteger } from '../db/integers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAnyRole } from '../auth/plugin';
import {
  ANY_OBJECT,
  ASSIGNEES,
  CODE_NAME_ITEMS,
  DERIVED_VALUES,
  documentSummarySchema,
  documentViewSchema,
  HISTORY_ENTRY,
  PDF_RESPONSE,
  PROBLEM_RESPONSES,
  searchRequestSchema,
  searchResultSchema,
  stringParams,
  VERSION_SUMMARY,
} from '../api-contract/common';
import type { Principal } from '../auth/principal';
import type { DocumentService } from '../documents/service';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { requestLanguage } from '../http/language';

type TypeParams = { type: string };
type DocParams = TypeParams & { id: string };

/**
 * The routes' generic shapes: they check and write every workflow's requests and answers, and
 * stay out of the contract, which lists one path per workflow, action and list instead
 * (api-contract/definition-paths.ts).
 */
const DOCUMENT = { 200: documentViewSchema(ANY_OBJECT), ...PROBLEM_RESPONSES };
const ACTION_BODY = {
  type: 'object',
  properties: {
    version: { type: 'integer' },
    data: ANY_OBJECT,
    notes: { type: 'string' },
    assignee: { type: 'string' },
    owner: { type: 'string' },
  },
};
const generic = (params: string[], response: object, body?: object) => ({
  schema: { hide: true, params: stringParams(...params), response, ...(body && { body }) },
});

/**
 * The `evisa` backend: documents of every type defined in workflows/, one generic set of routes.
 * Roles, states, ownership and validation all come from the workflow and its schema.
 */
export async function evisaPlugin(app: FastifyInstance, options: { documents: DocumentService }) {
  // The same routes serve every backend of documents (evisa, connectid); each instance its own.
  const { documents } = options;
  /** Signed in, and holding at least one role of the workflow; finer checks are the service's. */
  const caller = (request: FastifyRequest<{ Params: TypeParams }>): Principal =>
    requireAnyRole(request, documents.workflow(request.params.type).anyRole);

  app.patch<{ Params: TypeParams }>(
    '/:type',
    generic(
      ['type'],
      { 200: searchResultSchema(documentSummarySchema(ANY_OBJECT)), ...PROBLEM_RESPONSES },
      searchRequestSchema(undefined, { list: { type: 'string' } }),
    ),
    async (request) => documents.search(request.params.type, caller(request), request.body),
  );
  app.post<{ Params: TypeParams }>(
    '/:type',
    generic(
      ['type'],
      { ...DOCUMENT, 201: DOCUMENT[200] },
      {
        type: 'object',
        properties: {
          action: { type: 'string' },
          data: ANY_OBJECT,
          notes: { type: 'string' },
          owner: { type: 'string' },
        },
      },
    ),
    async (request, reply) =>
      reply
        .status(201)
        .send(await documents.create(request.params.type, caller(request), request.body)),
  );
  app.post<{ Params: TypeParams }>(
    '/:type/derive',
    generic(
      ['type'],
      { 200: DERIVED_VALUES, ...PROBLEM_RESPONSES },
      {
        type: 'object',
        properties: { data: ANY_OBJECT, id: { type: 'string' } },
      },
    ),
    async (request) => documents.derive(request.params.type, caller(request), request.body),
  );
  // The documents a choice field of the type's form may name (an access unit's roles).
  app.get<{ Params: TypeParams & { document: string } }>(
    '/:type/choices/:document',
    generic(['type', 'document'], { 200: CODE_NAME_ITEMS, ...PROBLEM_RESPONSES }),
    async (request) => {
      caller(request);
      return documents.choices(request.params.type, request.params.document);
    },
  );
  // The people an action taking an assignee may name (the assignment screen's choice).
  app.get<{ Params: TypeParams & { action: string } }>(
    '/:type/assignees/:action',
    generic(['type', 'action'], { 200: ASSIGNEES, ...PROBLEM_RESPONSES }),
    async (request) =>
      documents.assignees(request.params.type, caller(request), request.params.action),
  );
  app.get<{ Params: DocParams }>('/:type/:id', generic(['type', 'id'], DOCUMENT), async (request) =>
    documents.read(request.params.type, caller(request), request.params.id),
  );
  app.put<{ Params: DocParams }>(
    '/:type/:id',
    generic(['type', 'id'], DOCUMENT, ACTION_BODY),
    async (request) =>
      documents.act(
        request.params.type,
        caller(request),
        request.params.id,
        'update',
        request.body,
      ),
  );
  // The document's certificate, or (with a number) that of one of its people.
  for (const path of ['/:type/:id/certificate', '/:type/:id/certificate/:number'])
    app.get<{ Params: DocParams & { number?: string } }>(
      path,
      generic(path.endsWith(':number') ? ['type', 'id', 'number'] : ['type', 'id'], {
        200: PDF_RESPONSE,
        ...PROBLEM_RESPONSES,
      }),
      async (request, reply) => {
        const { filename, pdf } = await documents.certificate(
          request.params.type,
          caller(request),
          request.params.id,
          request.params.number,
        );
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `inline; filename="${filename}"`)
          .header('cache-control', 'private, no-store')
          .send(Buffer.from(pdf));
      },
    );
  app.get<{ Params: DocParams }>(
    '/:type/:id/versions',
    generic(['type', 'id'], {
      200: { type: 'array', items: VERSION_SUMMARY },
      ...PROBLEM_RESPONSES,
    }),
    async (request) => documents.versions(request.params.type, caller(request), request.params.id),
  );
  app.get<{ Params: DocParams & { version: string } }>(
    '/:type/:id/versions/:version',
    generic(['type', 'id', 'version'], DOCUMENT),
    async (request) => {
      const version = Number(request.params.version);
      if (!isStoredPositiveInteger(version)) throw new ApiProblem(404, ERROR_CODES.notFound);
      return documents.readVersion(
        request.params.type,
        caller(request),
        request.params.id,
        version,
      );
    },
  );
  app.get<{ Params: DocParams }>(
    '/:type/:id/history',
    generic(['type', 'id'], { 200: { type: 'array', items: HISTORY_ENTRY }, ...PROBLEM_RESPONSES }),
    async (request) =>
      documents.history(
        request.params.type,
        caller(request),
        request.params.id,
        requestLanguage(request),
      ),
  );
  app.post<{ Params: DocParams & { action: string } }>(
    '/:type/:id/actions/:action',
    generic(['type', 'id', 'action'], DOCUMENT, ACTION_BODY),
    async (request) =>
      documents.act(
        request.params.type,
        caller(request),
        request.params.id,
        request.params.action,
        request.body,
      ),
  );
}
