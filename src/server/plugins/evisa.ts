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
import type { AuditLog } from '../audit/log';
import { namedDocument, othersRows, recordRead, type ReadWhat } from '../audit/reads';

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
  options: {
    documents: DocumentService;
    catalogs?: readonly CatalogDefinition[];
    /** Where reads of others' documents are recorded (docs/audit.md); none: not recorded. */
    audit?: AuditLog;
  },
) {
  const { documents, audit } = options;
  const catalogs = new Map((options.catalogs ?? []).map((catalog) => [catalog.id, catalog]));
  /** Signed in, and holding at least one role of the workflow; finer checks are the service's. */
  const caller = (request: FastifyRequest<{ Params: TypeParams }>): Principal =>
    requireAnyRole(request, documents.workflow(request.params.type).anyRole);
  /** Records a read of the document the route names, once it was answered (audit/reads.ts). */
  const recordReadOf = async (
    request: FastifyRequest<{ Params: DocParams }>,
    principal: Principal,
    what: ReadWhat,
  ) => {
    if (!audit) return;
    const { type, id } = request.params;
    const document = await namedDocument(
      documents.database,
      documents.workflow(type).definition,
      id,
    );
    recordRead(audit, request, principal, document, what);
  };

  app.patch<{ Params: TypeParams }>(
    '/:type',
    perDefinition(['type'], searchResultSchema(documentSummarySchema(ANY_OBJECT)), {
      body: searchRequestSchema(undefined, {
        list: { type: 'string' },
        flags: { type: 'array', items: { type: 'string' } },
      }),
    }),
    async (request) => {
      const principal = caller(request);
      const result = await documents.search(request.params.type, principal, request.body);
      // A page showing others' documents is a read of them: which ones, and how it was asked.
      const others = othersRows(principal, result.items);
      if (others.length) {
        const body = (request.body ?? {}) as Record<string, unknown>;
        recordRead(audit, request, principal, undefined, {
          action: 'search.page',
          detail: {
            type: request.params.type,
            ...(typeof body.list === 'string' ? { list: body.list } : {}),
            ...(body.filter !== undefined ? { filter: body.filter } : {}),
            page: result.page,
            itemsPerPage: result.itemsPerPage,
            ids: others,
          },
        });
      }
      return result;
    },
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
    async (request) => {
      const principal = caller(request);
      const view = await documents.read(request.params.type, principal, request.params.id);
      recordRead(audit, request, principal, view, { action: 'document.read' });
      return view;
    },
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
        const principal = caller(request);
        const { filename, pdf } = await documents.certificate(type, principal, id, number);
        await recordReadOf(request, principal, {
          action: 'pdf.read',
          ...(number ? { target: number } : {}),
        });
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
        const principal = caller(request);
        const view = await documents.certificateView(type, principal, id, number);
        await recordReadOf(request, principal, {
          action: 'certificate.read',
          ...(number ? { target: number } : {}),
        });
        return view;
      },
    );
  app.get<{ Params: DocParams }>(
    '/:type/:id/versions',
    perDefinition(['type', 'id'], { type: 'array', items: VERSION_SUMMARY }),
    async (request) => {
      const principal = caller(request);
      const versions = await documents.versions(request.params.type, principal, request.params.id);
      await recordReadOf(request, principal, {
        action: 'document.read',
        detail: { part: 'versions' },
      });
      return versions;
    },
  );
  app.get<{ Params: DocParams & { version: string } }>(
    '/:type/:id/versions/:version',
    perDefinition(['type', 'id', 'version'], VIEW),
    async (request) => {
      const { type, id } = request.params;
      const version = Number(request.params.version);
      if (!isStoredPositiveInteger(version)) throw new ApiProblem(404, ERROR_CODES.notFound);
      const principal = caller(request);
      const view = await documents.readVersion(type, principal, id, version);
      recordRead(audit, request, principal, view, {
        action: 'document.read',
        detail: { part: 'version', version },
      });
      return view;
    },
  );
  app.get<{ Params: DocParams }>(
    '/:type/:id/history',
    perDefinition(['type', 'id'], { type: 'array', items: HISTORY_ENTRY }),
    async (request) => {
      const { type, id } = request.params;
      const principal = caller(request);
      const history = await documents.history(type, principal, id, requestLanguage(request));
      await recordReadOf(request, principal, {
        action: 'document.read',
        detail: { part: 'history' },
      });
      return history;
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
