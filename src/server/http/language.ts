import type { FastifyRequest } from 'fastify';
import { pickLanguage, type Language } from '../../core/i18n/translate';

/** The request's language: its `locale` header first, then Accept-Language, else English. */
export function requestLanguage(request: FastifyRequest): Language {
  const locale = request.headers.locale;
  return pickLanguage(
    Array.isArray(locale) ? locale[0] : locale,
    request.headers['accept-language'],
  );
}
