import type { FastifyInstance } from 'fastify';
import { ENUMERATIONS_ROUTES } from '../api-contract/fixed-routes';
import { enumerations } from '../../core/definitions/enumerations';
import type { Language, TextTree } from '../../core/i18n/translate';
import { requestLanguage } from '../http/language';

/**
 * `GET /api/catalog/enumerations`: CheckType, AttributeType, the document type (1 Document,
 * 2 Sub-Document) and the filter criteria, each value with its ordinal and its label in the
 * request's language. Public: they are the vocabulary of the forms, not data.
 */
export async function enumerationsPlugin(
  app: FastifyInstance,
  options: { translations: Record<Language, TextTree> },
) {
  app.get('/enumerations', ENUMERATIONS_ROUTES.enumerations, async (request, reply) => {
    const language = requestLanguage(request);
    return reply
      .header('cache-control', 'public, max-age=3600')
      .header('vary', 'locale, accept-language')
      .send(enumerations(options.translations, language));
  });
}
