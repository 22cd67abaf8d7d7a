import type { FastifyError, FastifyInstance } from 'fastify';
import type { ApiError } from '../../core/api/errors';
import { lookup, translate, type Language, type TextTree } from '../../core/i18n/translate';
import { toFieldErrors } from '../../core/validation/field-errors';
import { ApiProblem, ERROR_CODES, problemsOf, schemaErrorsOf } from './api-error';
import { requestLanguage } from './language';
import { isNode } from '../../core/definitions/json';

/** Fastify's own errors mapped to our stable codes. */
const FASTIFY_CODES: Record<string, { status: number; code: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: ERROR_CODES.invalidJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: ERROR_CODES.invalidJson },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 400, code: ERROR_CODES.invalidJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: ERROR_CODES.tooLarge },
};

/**
 * Every failure leaves as `{error: {status, code, message, fields}}` with the message in the
 * request's language, so the browser can show it as it is.
 */
export function installErrorHandler(
  app: FastifyInstance,
  texts: Partial<Record<Language, TextTree>>,
): void {
  // A status or an action (a document that cannot move) is named by its words, not its code.
  const inWords = (params: Record<string, unknown> = {}, language: Language) => {
    const words = { ...params };
    // A parameter given in every language (the labels of requested items) is said in the reader's.
    for (const [name, value] of Object.entries(params))
      if (isNode(value) && typeof value[language] === 'string') words[name] = value[language];
    for (const [name, namespace] of [
      ['status', 'statuses'],
      ['action', 'actions'],
      // The earlier action that bars a person from this one (separation of duties).
      ['earlier', 'actions'],
    ] as const) {
      const key = `${namespace}.${String(params[name])}`;
      const tree = texts[language];
      if (typeof params[name] === 'string' && tree && lookup(tree, key) !== undefined)
        words[name] = translate(texts, language, key);
    }
    return words;
  };
  const body = (
    language: Language,
    status: number,
    code: string,
    problem?: ApiProblem,
  ): { error: ApiError } => {
    const words = (params?: Record<string, unknown>) => inWords(params, language);
    const key = problem?.messageKey ?? `errors.${code}`;
    const message = translate(texts, language, key, words(problem?.params));
    const fields =
      problem?.fields && toFieldErrors(schemaErrorsOf(problem.fields, words), texts, language);
    return { error: { status, code, message, ...(fields && { fields }), ...problem?.details } };
  };

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const send = (status: number, code: string, problem?: ApiProblem) =>
      reply.status(status).send(body(requestLanguage(request), status, code, problem));
    if (error instanceof ApiProblem) {
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      return send(error.status, error.code, error);
    }
    // A unique index caught two requests racing for one key: the loser is told to retry.
    if ((error as { code?: string }).code === '23505') return send(409, ERROR_CODES.conflict);
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return send(known.status, known.code);
    if (error.statusCode === 429) return send(429, ERROR_CODES.tooManyRequests);
    if (error.validation) {
      const fields = problemsOf(error.validation);
      const problem = new ApiProblem(400, ERROR_CODES.validationFailed, {}, fields);
      return send(400, problem.code, problem);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
      return send(error.statusCode, ERROR_CODES.invalidJson);
    request.log.error({ err: error }, 'unexpected error');
    return send(500, ERROR_CODES.internal);
  });

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(body(requestLanguage(request), 404, ERROR_CODES.notFound)),
  );
}
