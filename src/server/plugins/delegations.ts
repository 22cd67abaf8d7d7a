import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAnyRole, requireSignedIn } from '../auth/plugin';
import { perDefinition, PROBLEM_RESPONSES } from '../api-contract/common';
import {
  DELEGATION,
  DOCUMENT_DELEGATIONS,
  HOLDER_DELEGATIONS,
  NEW_DELEGATION,
  RECEIVED_DELEGATIONS,
} from '../api-contract/delegations';
import type { Principal } from '../auth/principal';
import type { DelegationService } from '../documents/delegations';
import type { DocumentService } from '../documents/service';

type TypeParams = { type: string };

/**
 * Delegated access (docs/delegation.md), beside a backend's document routes: the holder's
 * `/:type/delegations` (name, list, revoke), a document's `/:type/:id/delegations`, and what the
 * caller received (`/delegations/received`). Reading and acting as a delegate goes through the
 * document routes themselves (commands.ts, readableRow).
 */
export async function delegationPlugin(
  app: FastifyInstance,
  options: { documents: DocumentService; delegations: DelegationService },
) {
  const { documents, delegations } = options;
  /** Signed in, and holding one role of the workflow (as for reading one's documents). */
  const caller = (request: FastifyRequest<{ Params: TypeParams }>): Principal =>
    requireAnyRole(request, documents.workflow(request.params.type).anyRole);

  app.get(
    '/delegations/received',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'The running delegations naming the caller',
        response: { 200: RECEIVED_DELEGATIONS, ...PROBLEM_RESPONSES },
      },
    },
    async (request) => delegations.received(requireSignedIn(request)),
  );
  app.get<{ Params: TypeParams }>(
    '/:type/delegations',
    perDefinition(['type'], HOLDER_DELEGATIONS),
    async (request) => delegations.list(request.params.type, caller(request)),
  );
  app.post<{ Params: TypeParams }>(
    '/:type/delegations',
    perDefinition(['type'], DELEGATION, { body: NEW_DELEGATION, status: 201 }),
    async (request, reply) => {
      const made = await delegations.create(request.params.type, caller(request), request.body);
      return reply.code(201).send(made);
    },
  );
  app.post<{ Params: TypeParams & { delegationId: string } }>(
    '/:type/delegations/:delegationId/revoke',
    perDefinition(['type', 'delegationId'], DELEGATION),
    async (request) => {
      const { type, delegationId } = request.params;
      return delegations.revoke(type, caller(request), delegationId);
    },
  );
  app.get<{ Params: TypeParams & { id: string } }>(
    '/:type/:id/delegations',
    perDefinition(['type', 'id'], DOCUMENT_DELEGATIONS),
    async (request) => {
      const { type, id } = request.params;
      return delegations.ofDocument(type, caller(request), id);
    },
  );
}
