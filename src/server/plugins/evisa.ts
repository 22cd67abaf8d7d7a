import { isStoredPositiveInteger } from '../db/integers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAnyRole } from '../auth/plugin';
import { DOCUMENT_ROUTES } from '../api-contract/fixed-routes';
import type { Principal } from '../auth/principal';
import type { DocumentService } from '../documents/service';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { requestLanguage } from '../http/language';

type TypeParams = { type: string };
type DocParams = TypeParams & { id: string };

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

  app.patch<{ Params: TypeParams }>('/:type', DOCUMENT_ROUTES.search, async (request) =>
    documents.search(request.params.type, caller(request), request.body),
  );
  app.post<{ Params: TypeParams }>('/:type', DOCUMENT_ROUTES.create, async (request, reply) =>
    reply
      .status(201)
      .send(await documents.create(request.params.type, caller(request), request.body)),
  );
  app.post<{ Params: TypeParams }>('/:type/derive', DOCUMENT_ROUTES.derive, async (request) =>
    documents.derive(request.params.type, caller(request), request.body),
  );
  // The documents a choice field of the type's form may name (an access unit's roles).
  app.get<{ Params: TypeParams & { document: string } }>(
    '/:type/choices/:document',
    DOCUMENT_ROUTES.choices,
    async (request) => {
      caller(request);
      return documents.choices(request.params.type, request.params.document);
    },
  );
  // The people an action taking an assignee may name (the assignment screen's choice).
  app.get<{ Params: TypeParams & { action: string } }>(
    '/:type/assignees/:action',
    DOCUMENT_ROUTES.assignees,
    async (request) =>
      documents.assignees(request.params.type, caller(request), request.params.action),
  );
  app.get<{ Params: DocParams }>('/:type/:id', DOCUMENT_ROUTES.read, async (request) =>
    documents.read(request.params.type, caller(request), request.params.id),
  );
  app.put<{ Params: DocParams }>('/:type/:id', DOCUMENT_ROUTES.update, async (request) =>
    documents.act(request.params.type, caller(request), request.params.id, 'update', request.body),
  );
  // The document's certificate, or (with a number) that of one of its people.
  for (const path of ['/:type/:id/certificate', '/:type/:id/certificate/:number'])
    app.get<{ Params: DocParams & { number?: string } }>(
      path,
      path.endsWith(':number') ? DOCUMENT_ROUTES.holderCertificate : DOCUMENT_ROUTES.certificate,
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
  app.get<{ Params: DocParams }>('/:type/:id/versions', DOCUMENT_ROUTES.versions, async (request) =>
    documents.versions(request.params.type, caller(request), request.params.id),
  );
  app.get<{ Params: DocParams & { version: string } }>(
    '/:type/:id/versions/:version',
    DOCUMENT_ROUTES.version,
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
  app.get<{ Params: DocParams }>('/:type/:id/history', DOCUMENT_ROUTES.history, async (request) =>
    documents.history(
      request.params.type,
      caller(request),
      request.params.id,
      requestLanguage(request),
    ),
  );
  app.post<{ Params: DocParams & { action: string } }>(
    '/:type/:id/actions/:action',
    DOCUMENT_ROUTES.action,
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
