import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Language, TextTree } from '../../core/i18n/translate';
import { FINANCE_ROLE } from '../../core/payments/report';
import { PAYMENT_REPORT_ROUTES } from '../api-contract/payment-report';
import { requireAnyRole } from '../auth/plugin';
import type { Database } from '../db/schema';
import { requestLanguage } from '../http/language';
import { paymentReport, paymentReportCsv, reportRange } from '../payments/report';

type Range = { Querystring: { from?: string; to?: string } };

/** `/api/payments/report`: the finance officers' payment report, as JSON and as CSV. */
export async function paymentReportPlugin(
  app: FastifyInstance,
  options: { db: Kysely<Database>; translations: Partial<Record<Language, TextTree>> },
) {
  const { db, translations } = options;
  app.get<Range>('/report', PAYMENT_REPORT_ROUTES.json, async (request) => {
    requireAnyRole(request, [FINANCE_ROLE]);
    return paymentReport(db, reportRange(request.query), requestLanguage(request), translations);
  });
  app.get<Range>('/report/csv', PAYMENT_REPORT_ROUTES.csv, async (request, reply) => {
    requireAnyRole(request, [FINANCE_ROLE]);
    const range = reportRange(request.query);
    const language = requestLanguage(request);
    const report = await paymentReport(db, range, language, translations);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="payments-${range.from}-${range.to}.csv"`,
      )
      .send(paymentReportCsv(report, language, translations));
  });
}
