import type { FastifyInstance, FastifyRequest } from 'fastify';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import { toCents } from '../../core/payments/money';
import { requireAnyRole, requireSignedIn } from '../auth/plugin';
import {
  arrayOf,
  PDF_RESPONSE,
  perDefinition,
  PROBLEM_RESPONSES,
  stringParams,
  type ContractSchema,
} from '../api-contract/common';
import {
  DECISION_BODY,
  DOCUMENT_REFUNDS,
  REFUND_REQUEST_BODY,
  REFUND_VIEW,
  TRANSFER_BODY,
} from '../api-contract/refunds';
import type { DocumentService } from '../documents/service';
import { invalid } from '../search/compile-search';
import type { RefundService } from '../payments/refund-service';
import { sendPdf } from './evisa';

type DocParams = { type: string; id: string };
type RefundParams = { refund: string };

export interface RefundsPluginOptions {
  refunds: RefundService;
  documents: DocumentService;
  translations: Record<Language, TextTree>;
}

/**
 * Refunds of paid documents (docs/payments.md, "Refunds"), under `/api/payments`: a document's
 * refunds and a refund opened by hand, the refunds awaiting approval, approve, reject, record a
 * transfer, and a refund's receipt. The gateway's refund notifications are the payments plugin's
 * (they are read as raw text for their signature).
 */
export async function refundsPlugin(app: FastifyInstance, options: RefundsPluginOptions) {
  const { refunds, documents, translations } = options;
  const reader = (request: FastifyRequest<{ Params: DocParams }>) => {
    const workflow = documents.workflow(request.params.type);
    return requireAnyRole(request, workflow.anyRole);
  };
  const refundSchema = (
    summary: string,
    response: ContractSchema,
    body?: ContractSchema,
  ): { schema: Record<string, unknown> } => ({
    schema: {
      tags: ['payments'],
      summary,
      params: stringParams('refund'),
      ...(body ? { body } : {}),
      response: { 200: response, ...PROBLEM_RESPONSES },
    },
  });
  const trimmed = (value: string, path: string): string => {
    const text = value.trim();
    if (!text) throw invalid([{ path, rule: 'required' }]);
    return text;
  };

  app.get<{ Params: DocParams }>(
    '/:type/:id/refunds',
    perDefinition(['type', 'id'], DOCUMENT_REFUNDS),
    async (request) => {
      const { type, id } = request.params;
      return refunds.listOf(type, id, reader(request));
    },
  );

  app.post<{
    Params: DocParams;
    Body: { amount: string; reason: string; note?: string; idempotencyKey?: string };
  }>(
    '/:type/:id/refunds',
    perDefinition(['type', 'id'], REFUND_VIEW, { body: REFUND_REQUEST_BODY, status: 201 }),
    async (request, reply) => {
      const { type, id } = request.params;
      const { amount, reason, note, idempotencyKey } = request.body;
      const cents = toCents(amount);
      if (cents === undefined || cents <= 0)
        throw invalid([{ path: '/amount', rule: 'exclusiveMinimum', params: { limit: 0 } }]);
      const view = await refunds.request(type, id, requireSignedIn(request), {
        amountCents: cents,
        reason,
        ...(note?.trim() ? { note: note.trim() } : {}),
        ...(idempotencyKey ? { idempotencyKey } : {}),
      });
      return reply.status(201).send(view);
    },
  );

  app.get(
    '/refunds/pending',
    {
      schema: {
        tags: ['payments'],
        summary: 'Refunds waiting for approval, of the workflows whose approvers the caller is',
        response: { 200: arrayOf(REFUND_VIEW), ...PROBLEM_RESPONSES },
      },
    },
    async (request) => refunds.awaitingApproval(requireSignedIn(request)),
  );

  app.post<{ Params: RefundParams; Body: { reason: string } }>(
    '/refunds/:refund/approve',
    refundSchema(
      'Approves a refund waiting for approval (not by its requester); it is then sent',
      REFUND_VIEW,
      DECISION_BODY,
    ),
    async (request) =>
      refunds.approve(
        request.params.refund,
        requireSignedIn(request),
        trimmed(request.body.reason, '/reason'),
      ),
  );

  app.post<{ Params: RefundParams; Body: { reason: string } }>(
    '/refunds/:refund/reject',
    refundSchema('Rejects a refund waiting for approval', REFUND_VIEW, DECISION_BODY),
    async (request) =>
      refunds.reject(
        request.params.refund,
        requireSignedIn(request),
        trimmed(request.body.reason, '/reason'),
      ),
  );

  app.post<{ Params: RefundParams; Body: { reference: string } }>(
    '/refunds/:refund/transfer',
    refundSchema(
      'Records the bank transfer of a refund by transfer: it is then REFUNDED',
      REFUND_VIEW,
      TRANSFER_BODY,
    ),
    async (request) =>
      refunds.recordTransfer(
        request.params.refund,
        requireSignedIn(request),
        trimmed(request.body.reference, '/reference'),
      ),
  );

  app.get<{ Params: RefundParams }>(
    '/refunds/:refund/receipt',
    refundSchema("The refund's receipt as a PDF, in the holder's language", PDF_RESPONSE),
    async (request, reply) => {
      const title = (type: string, language: Language) => {
        const key = documents.workflow(type).definition.payment?.title ?? type;
        return translate(translations, language, key);
      };
      const receipt = await refunds.receipt(request.params.refund, requireSignedIn(request), title);
      const { renderRefundReceiptPdf } = await import('../payments/refund-receipt-pdf');
      const pdf = await renderRefundReceiptPdf(receipt, translations, receipt.language);
      return sendPdf(reply, `refund-${receipt.refundNumber}.pdf`, pdf);
    },
  );
}
