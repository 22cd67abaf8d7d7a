import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAnyRole, requireSignedIn } from '../auth/plugin';
import { perDefinition, PROBLEM_RESPONSES } from '../api-contract/common';
import { DOCUMENT_PAYERS, NEW_PAYER, PAYABLE_DOCUMENTS } from '../api-contract/payer-consents';
import type { Principal } from '../auth/principal';
import type { PayerConsentService } from '../documents/payer-consents';
import type { DocumentService } from '../documents/service';

type DocParams = { type: string; id: string };

/**
 * Paying for others (docs/payments.md, "Paying for others"), beside a backend's document routes:
 * `/:type/:id/payers` (the holder names and revokes payers) and `/payer-consents` (what the
 * caller was named payer of).
 */
export async function payerConsentPlugin(
  app: FastifyInstance,
  options: { documents: DocumentService; consents: PayerConsentService },
) {
  const { documents, consents } = options;
  /** Signed in, and holding one role of the workflow (as for reading the document). */
  const caller = (request: FastifyRequest<{ Params: DocParams }>): Principal =>
    requireAnyRole(request, documents.workflow(request.params.type).anyRole);

  app.get(
    '/payer-consents',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'The documents whose holders named the caller as their payer',
        response: { 200: PAYABLE_DOCUMENTS, ...PROBLEM_RESPONSES },
      },
    },
    async (request) => consents.payable(requireSignedIn(request)),
  );
  app.get<{ Params: DocParams }>(
    '/:type/:id/payers',
    perDefinition(['type', 'id'], DOCUMENT_PAYERS),
    async (request) => {
      const { type, id } = request.params;
      return consents.list(type, caller(request), id);
    },
  );
  app.post<{ Params: DocParams }>(
    '/:type/:id/payers',
    perDefinition(['type', 'id'], DOCUMENT_PAYERS, { body: NEW_PAYER }),
    async (request) => {
      const { type, id } = request.params;
      return consents.grant(type, caller(request), id, request.body);
    },
  );
  app.delete<{ Params: DocParams & { consentId: string } }>(
    '/:type/:id/payers/:consentId',
    perDefinition(['type', 'id', 'consentId'], DOCUMENT_PAYERS),
    async (request) => {
      const { type, id, consentId } = request.params;
      return consents.revoke(type, caller(request), id, consentId);
    },
  );
}
