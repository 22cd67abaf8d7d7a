import type { FastifyInstance } from 'fastify';
import { ANY_OBJECT } from '../api-contract/common';
import { enumerations } from '../../core/definitions/enumerations';
import type { Language, TextTree } from '../../core/i18n/translate';
import { requestLanguage } from '../http/language';

/** `GET /api/catalog/enumerations`, labelled in the request's language; public vocabulary. */
export async function enumerationsPlugin(
  app: FastifyInstance,
  options: { translations: Record<Language, TextTree> },
) {
  const schema = {
    tags: ['catalogue'],
    summary: 'Check types, attribute types, document types and filter criteria, labelled',
    response: {
      200: {
        description: "Each enumeration's label and values in the request's language",
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: { label: { type: 'string' }, values: { type: 'array', items: ANY_OBJECT } },
        },
      },
    },
  } as const;
  app.get('/enumerations', { schema }, async (request, reply) => {
    const language = requestLanguage(request);
    return reply
      .header('cache-control', 'public, max-age=3600')
      .header('vary', 'locale, accept-language')
      .send(enumerations(options.translations, language));
  });
}
