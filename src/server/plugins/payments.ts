import type { FastifyInstance, FastifyRequest } from 'fastify';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import { requireAnyRole } from '../auth/plugin';
import {
  objectSchema,
  PAYMENT_STATE,
  PDF_RESPONSE,
  perDefinition,
  PROBLEM_RESPONSES,
  REFUND_QUOTE,
  stringParams,
  type ContractSchema,
} from '../api-contract/common';
import type { Principal } from '../auth/principal';
import type { DocumentService } from '../documents/service';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { requestLanguage } from '../http/language';
import { RefusedReport, type PaymentService } from '../payments/service';
import { ForgedReport, type RefundService } from '../payments/refund-service';
import { sendPdf } from './evisa';

type DocParams = { type: string; id: string };

/** A document's payment routes: the contract lists one path per payable workflow instead. */
const perWorkflow = (response: ContractSchema) => perDefinition(['type', 'id'], response);

export interface PaymentsPluginOptions {
  payments: PaymentService;
  refunds: RefundService;
  documents: DocumentService;
  translations: Record<Language, TextTree>;
}

/** `/api/payments`: to the gateway, its notifications, a payment's state and the receipt PDF. */
export async function paymentsPlugin(app: FastifyInstance, options: PaymentsPluginOptions) {
  const { payments, refunds, documents, translations } = options;
  const caller = (request: FastifyRequest<{ Params: DocParams }>): Principal => {
    const workflow = documents.workflow(request.params.type);
    if (!workflow.definition.payment) throw new ApiProblem(404, ERROR_CODES.notFound);
    return requireAnyRole(request, workflow.anyRole);
  };
  const title = (type: string, language: Language): string => {
    const key = documents.workflow(type).definition.payment?.title ?? type;
    return translate(translations, language, key);
  };

  // The notification's signature covers the body exactly as sent: keep it as text.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.post<{ Params: { gateway: string } }>(
    '/notify/:gateway',
    {
      schema: {
        tags: ['payments'],
        summary: "The gateway's signed notification of a payment's outcome",
        description: 'The signature covers the body exactly as sent, so it is read as text.',
        params: stringParams('gateway'),
        body: { type: 'string', description: "A JSON object, the gateway's own" },
        response: {
          200: {
            description: 'Recorded',
            ...objectSchema([], { received: { type: 'boolean' }, status: { type: 'string' } }),
          },
          ...PROBLEM_RESPONSES,
        },
      },
    },
    async (request) => {
      const { gateway } = request.params;
      const refused = refusal(request, 400, 'payment notification refused', { gateway });
      const body = String(request.body ?? '');
      const status = await payments.notify(body, request.headers).catch(refused);
      return { received: true, status };
    },
  );

  app.post<{ Params: { gateway: string } }>(
    '/notify/:gateway/refunds',
    {
      schema: {
        tags: ['payments'],
        summary: "The gateway's signed notification of a refund's outcome",
        description:
          'Applied once: a replay changes nothing; a bad signature is refused (401), a report naming an unknown refund, another payment or another amount too (409). Both are logged.',
        params: stringParams('gateway'),
        body: { type: 'string', description: "A JSON object, the gateway's own" },
        response: {
          200: {
            description: 'Recorded',
            ...objectSchema([], { received: { type: 'boolean' }, status: { type: 'string' } }),
          },
          ...PROBLEM_RESPONSES,
        },
      },
    },
    async (request) => {
      const { gateway } = request.params;
      const body = String(request.body ?? '');
      const status = await refunds.notify(body, request.headers).catch((error: unknown) => {
        if (error instanceof ForgedReport) {
          request.log.warn({ gateway, reason: error.message }, 'refund notification forged');
          throw new ApiProblem(401, ERROR_CODES.refundNotificationForged);
        }
        return refusal(request, 409, 'refund notification refused', { gateway })(error);
      });
      return { received: true, status };
    },
  );

  app.post<{ Params: DocParams }>(
    '/:type/:id/purchase',
    perWorkflow({ type: 'object', properties: { redirectUrl: { type: 'string' } } }),
    async (request) => {
      const { type, id } = request.params;
      const language = requestLanguage(request);
      return payments.purchase(type, id, caller(request), language, title(type, language));
    },
  );

  app.get<{ Params: DocParams }>('/:type/:id', perWorkflow(PAYMENT_STATE), async (request) => {
    const principal = caller(request);
    const refused = refusal(request, 409, 'payment report refused');
    return payments.state(request.params.type, request.params.id, principal).catch(refused);
  });

  // What a withdrawal would refund now: the confirmation says it before the holder decides.
  app.get<{ Params: DocParams }>('/:type/:id/refund', perWorkflow(REFUND_QUOTE), async (request) =>
    payments.refundQuote(request.params.type, request.params.id, caller(request)),
  );

  app.get<{ Params: DocParams }>(
    '/:type/:id/receipt',
    perWorkflow(PDF_RESPONSE),
    async (request, reply) => {
      const { type, id } = request.params;
      // The holder's receipt, in the holder's language, whoever prints it.
      const receipt = await payments.receipt(type, id, caller(request), (language) =>
        title(type, language),
      );
      // pdf-lib loads with the first receipt, not with every start of the server.
      const { renderReceiptPdf } = await import('../payments/receipt-pdf');
      const pdf = await renderReceiptPdf(receipt, translations, receipt.language);
      return sendPdf(reply, `receipt-${receipt.receiptReference}.pdf`, pdf);
    },
  );
}

/** What answers a gateway report the service refused: logged with why, then `status`. */
function refusal(request: FastifyRequest, status: 400 | 409, message: string, fields = {}) {
  return (error: unknown): never => {
    if (!(error instanceof RefusedReport)) throw error;
    request.log.warn({ ...fields, reason: error.reason }, message);
    throw new ApiProblem(status, ERROR_CODES.paymentRefused);
  };
}
