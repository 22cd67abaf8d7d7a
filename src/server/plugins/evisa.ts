import { isStoredPositiveInteger } from '../db/integers';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
  SCREENING_HITS,
  perDefinition,
  searchRequestSchema,
  searchResultSchema,
  VERSION_SUMMARY,
} from '../api-contract/common';
import { withRequestRound } from '../api-contract/requests';
import type { Principal } from '../auth/principal';
import type { DocumentService } from '../documents/service';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { requestLanguage } from '../http/language';
import type { CatalogDefinition } from '../../core/definitions/types';
import { screeningHits } from '../documents/screening-hits';
import { CERTIFICATE_VIEW } from '../api-contract/certificate-view';

type TypeParams = { type: string };
type DocParams = TypeParams & { id: string };

/** A document as the routes answer it, and the body of its actions (definition-paths.ts). */
// With the request for information it carries, if any (api-contract/requests.ts).
const VIEW = withRequestRound(documentViewSchema(ANY_OBJECT));
const SENT = { data: ANY_OBJECT, notes: { type: 'string' }, owner: { type: 'string' } };
const ACTION_BODY = {
  type: 'object',
  properties: { version: { type: 'integer' }, assignee: { type: 'string' }, ...SENT },
};
const CREATE_BODY = { type: 'object', properties: { action: { type: 'string' }, ...SENT } };

/**
 * A backend of documents (the default one, or a module's): one generic set of routes for every workflow, whose
 * roles, states, ownership and validation come from its definition.
 */
export async function evisaPlugin(
  app: FastifyInstance,
  options: { documents: DocumentService; catalogs?: readonly CatalogDefinition[] },
) {
  const { documents } = options;
  const catalogs = new Map((options.catalogs ?? []).map((catalog) => [catalog.id, catalog]));
  /** Signed in, and holding at least one role of the workflow; finer checks are the service's. */
  const caller = (request: FastifyRequest<{ Params: TypeParams }>): Principal =>
    requireAnyRole(request, documents.workflow(request.params.type).anyRole);

  app.patch<{ Params: TypeParams }>(
    '/:type',
    perDefinition(['type'], searchResultSchema(documentSummarySchema(ANY_OBJECT)), {
      body: searchRequestSchema(undefined, {
        list: { type: 'string' },
        flags: { type: 'array', items: { type: 'string' } },
      }),
    }),
    async (request) => documents.search(request.params.type, caller(request), request.body),
  );
  app.post<{ Params: TypeParams }>(
    '/:type',
    perDefinition(['type'], VIEW, { body: CREATE_BODY, status: 201 }),
    async (request, reply) =>
      reply
        .status(201)
        .send(await documents.create(request.params.type, caller(request), request.body)),
  );
  app.post<{ Params: TypeParams }>(
    '/:type/derive',
    perDefinition(['type'], DERIVED_VALUES, {
      body: { type: 'object', properties: { data: ANY_OBJECT, id: { type: 'string' } } },
    }),
    async (request) => documents.derive(request.params.type, caller(request), request.body),
  );
  // The documents a choice field of the type's form may name (an access unit's roles).
  app.get<{ Params: TypeParams & { document: string } }>(
    '/:type/choices/:document',
    perDefinition(['type', 'document'], CODE_NAME_ITEMS),
    async (request) => {
      caller(request);
      return documents.choices(request.params.type, request.params.document);
    },
  );
  // The people an action taking an assignee may name (the assignment screen's choice).
  app.get<{ Params: TypeParams & { action: string } }>(
    '/:type/assignees/:action',
    perDefinition(['type', 'action'], ASSIGNEES),
    async (request) =>
      documents.assignees(request.params.type, caller(request), request.params.action),
  );
  app.get<{ Params: DocParams }>(
    '/:type/:id',
    perDefinition(['type', 'id'], VIEW),
    async (request) => documents.read(request.params.type, caller(request), request.params.id),
  );
  app.put<{ Params: DocParams }>(
    '/:type/:id',
    perDefinition(['type', 'id'], VIEW, { body: ACTION_BODY }),
    async (request) => {
      const { type, id } = request.params;
      return documents.act(type, caller(request), id, 'update', request.body);
    },
  );
  // The document's certificate, or (with a number) that of one of its people.
  for (const path of ['/:type/:id/certificate', '/:type/:id/certificate/:number'])
    app.get<{ Params: DocParams & { number?: string } }>(
      path,
      perDefinition(['type', 'id', ...(path.endsWith(':number') ? ['number'] : [])], PDF_RESPONSE),
      async (request, reply) => {
        const { type, id, number } = request.params;
        const { filename, pdf } = await documents.certificate(type, caller(request), id, number);
        return sendPdf(reply, filename, pdf);
      },
    );
  // The same certificate as text for a web page (the portal's accessible, printable one).
  for (const path of ['/:type/:id/certificate/view', '/:type/:id/certificate/view/:number'])
    app.get<{ Params: DocParams & { number?: string } }>(
      path,
      perDefinition(
        ['type', 'id', ...(path.endsWith(':number') ? ['number'] : [])],
        CERTIFICATE_VIEW,
      ),
      async (request) => {
        const { type, id, number } = request.params;
        return documents.certificateView(type, caller(request), id, number);
      },
    );
  app.get<{ Params: DocParams }>(
    '/:type/:id/versions',
    perDefinition(['type', 'id'], { type: 'array', items: VERSION_SUMMARY }),
    async (request) => documents.versions(request.params.type, caller(request), request.params.id),
  );
  app.get<{ Params: DocParams & { version: string } }>(
    '/:type/:id/versions/:version',
    perDefinition(['type', 'id', 'version'], VIEW),
    async (request) => {
      const { type, id } = request.params;
      const version = Number(request.params.version);
      if (!isStoredPositiveInteger(version)) throw new ApiProblem(404, ERROR_CODES.notFound);
      return documents.readVersion(type, caller(request), id, version);
    },
  );
  app.get<{ Params: DocParams }>(
    '/:type/:id/history',
    perDefinition(['type', 'id'], { type: 'array', items: HISTORY_ENTRY }),
    async (request) => {
      const { type, id } = request.params;
      return documents.history(type, caller(request), id, requestLanguage(request));
    },
  );
  // Screening hits (docs/workflows.md, "Screening"): the officers who see every document only.
  app.get<{ Params: DocParams }>(
    '/:type/:id/screening',
    perDefinition(['type', 'id'], SCREENING_HITS),
    async (request) => {
      const { type, id } = request.params;
      const workflow = documents.workflow(type);
      if (!workflow.definition.screening) throw new ApiProblem(404, ERROR_CODES.notFound);
      const language = requestLanguage(request);
      return screeningHits(documents.database, workflow, catalogs, caller(request), id, language);
    },
  );
  app.post<{ Params: DocParams & { action: string } }>(
    '/:type/:id/actions/:action',
    perDefinition(['type', 'id', 'action'], VIEW, { body: ACTION_BODY }),
    async (request) => {
      const { type, id, action } = request.params;
      return documents.act(type, caller(request), id, action, request.body);
    },
  );
}

/** A PDF for its reader only: kept by no shared cache nor the browser's. */
export function sendPdf(reply: FastifyReply, filename: string, pdf: Uint8Array) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `inline; filename="${filename}"`)
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(pdf));
}
