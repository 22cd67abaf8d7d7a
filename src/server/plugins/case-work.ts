import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAnyRole } from '../auth/plugin';
import { perDefinition } from '../api-contract/common';
import {
  CASE_NOTE,
  CASE_NOTE_EDIT,
  CASE_NOTES,
  DOCUMENT_FLAGS,
  NEW_CASE_NOTE,
  REFERRING_LIST,
} from '../api-contract/case-work';
import type { ReferringDocuments } from '../documents/referring';
import type { Principal } from '../auth/principal';
import type { CaseWorkService } from '../documents/case-work';
import type { DocumentService } from '../documents/service';

type DocParams = { type: string; id: string };

/**
 * A backend's case notes and flags (docs/workflows.md, "Case notes and flags"), beside its
 * document routes: `/:type/:id/case-notes` and `/:type/:id/flags`; the contract lists them per
 * workflow declaring them (api-contract/case-work.ts).
 */
export async function caseWorkPlugin(
  app: FastifyInstance,
  options: { documents: DocumentService; caseWork: CaseWorkService; referring: ReferringDocuments },
) {
  const { documents, caseWork, referring } = options;
  /** Signed in, and holding one role of the workflow; the service checks the officers' roles. */
  const caller = (request: FastifyRequest<{ Params: DocParams }>): Principal =>
    requireAnyRole(request, documents.workflow(request.params.type).anyRole);

  app.get<{ Params: DocParams }>(
    '/:type/:id/case-notes',
    perDefinition(['type', 'id'], CASE_NOTES),
    async (request) => {
      const { type, id } = request.params;
      return caseWork.notes(type, caller(request), id);
    },
  );
  app.post<{ Params: DocParams }>(
    '/:type/:id/case-notes',
    perDefinition(['type', 'id'], CASE_NOTE, { body: NEW_CASE_NOTE, status: 201 }),
    async (request, reply) => {
      const { type, id } = request.params;
      return reply
        .status(201)
        .send(await caseWork.addNote(type, caller(request), id, request.body));
    },
  );
  app.put<{ Params: DocParams & { noteId: string } }>(
    '/:type/:id/case-notes/:noteId',
    perDefinition(['type', 'id', 'noteId'], CASE_NOTE, { body: CASE_NOTE_EDIT }),
    async (request) => {
      const { type, id, noteId } = request.params;
      return caseWork.editNote(type, caller(request), id, noteId, request.body);
    },
  );
  app.get<{ Params: DocParams }>(
    '/:type/:id/flags',
    perDefinition(['type', 'id'], DOCUMENT_FLAGS),
    async (request) => {
      const { type, id } = request.params;
      return caseWork.flags(type, caller(request), id);
    },
  );
  // The documents naming this one (`referencedBy`), for its owner and officers (renewals.ts).
  app.get<{ Params: DocParams & { name: string } }>(
    '/:type/:id/referenced-by/:name',
    perDefinition(['type', 'id', 'name'], REFERRING_LIST),
    async (request) => {
      const { type, id, name } = request.params;
      return referring.list(type, caller(request), id, name);
    },
  );
  for (const [method, set] of [
    ['put', true],
    ['delete', false],
  ] as const)
    app[method]<{ Params: DocParams & { flag: string } }>(
      '/:type/:id/flags/:flag',
      perDefinition(['type', 'id', 'flag'], DOCUMENT_FLAGS),
      async (request) => {
        const { type, id, flag } = request.params;
        return caseWork.setFlag(type, caller(request), id, flag, set);
      },
    );
}
