import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { pickLanguage } from '../../core/i18n/translate';
import { requireAnyRole } from '../auth/plugin';
import type { Principal } from '../auth/principal';
import { perDefinition, PROBLEM_RESPONSES } from '../api-contract/common';
import {
  CREATE_SHARE_CODE,
  DOCUMENT_SHARE_CODES,
  NEW_SHARE_CODE,
  REVOKE_SHARE_CODE,
  SHARE_CHECK,
  SHARE_CHECK_ANSWER,
  SHARE_CHECK_QUERY,
  SHARE_CODE,
  STATUS_CHECKS,
} from '../api-contract/share-codes';
import type { Database } from '../db/schema';
import type { DocumentService } from '../documents/service';
import type { ShareCodeService } from '../documents/share-codes';
import { limitPublicChecks } from '../http/public-check-limit';

type DocParams = { type: string; id: string };

/** The fixed path these routes take beside a backend's `/:type` routes. */
const RESERVED_IDS = ['share-check'];

/**
 * Share codes and the check log (docs/status-sharing.md), beside a backend's document routes:
 * the holder's `/:type/:id/share-codes` and `/:type/:id/status-checks`, and the public
 * `/share-check`, limited per client address as the public check by number is.
 */
export async function shareCodesPlugin(
  app: FastifyInstance,
  options: {
    db: Kysely<Database>;
    documents: DocumentService;
    /** The workflows of the backend the routes are mounted on. */
    workflows: ReadonlyMap<string, unknown>;
    shareCodes: ShareCodeService;
    /** Public checks a client address may make per minute; 0: no limit. */
    rateLimit: number;
  },
) {
  const { documents, shareCodes } = options;
  const hidden = RESERVED_IDS.filter((id) => options.workflows.has(id));
  if (hidden.length)
    throw new Error(`Workflow id(s) ${hidden.join(', ')} clash with the share code routes`);
  /** Signed in, and holding one role of the workflow (as for reading the document). */
  const caller = (request: FastifyRequest<{ Params: DocParams }>): Principal =>
    requireAnyRole(request, documents.workflow(request.params.type).anyRole);

  app.get<{ Params: DocParams }>(
    '/:type/:id/share-codes',
    perDefinition(['type', 'id'], DOCUMENT_SHARE_CODES),
    async (request) => {
      const { type, id } = request.params;
      return shareCodes.list(type, caller(request), id);
    },
  );
  app.post<{ Params: DocParams }>(
    '/:type/:id/share-codes',
    perDefinition(['type', 'id'], NEW_SHARE_CODE, { body: CREATE_SHARE_CODE, status: 201 }),
    async (request, reply) => {
      const { type, id } = request.params;
      const made = await shareCodes.create(type, caller(request), id, request.body);
      return reply.code(201).header('cache-control', 'no-store').send(made);
    },
  );
  app.post<{ Params: DocParams & { codeId: string } }>(
    '/:type/:id/share-codes/:codeId/revoke',
    perDefinition(['type', 'id', 'codeId'], SHARE_CODE, { body: REVOKE_SHARE_CODE }),
    async (request) => {
      const { type, id, codeId } = request.params;
      return shareCodes.revoke(type, caller(request), id, codeId);
    },
  );
  app.get<{ Params: DocParams }>(
    '/:type/:id/status-checks',
    perDefinition(['type', 'id'], STATUS_CHECKS),
    async (request) => {
      const { type, id } = request.params;
      return shareCodes.checks(type, caller(request), id);
    },
  );

  const limited = await limitPublicChecks(app, options.db, options.rateLimit);
  app.post<{ Querystring: { lang?: string } }>(
    '/share-check',
    {
      schema: {
        tags: ['dashboard'],
        summary:
          'Public check of a status by share code and a holder’s detail (rate limited per client address and per code)',
        description:
          'Unknown code, wrong detail, expired, revoked or a document in no declared status: the same 404 SHARE_CODE_NOT_VERIFIED. Too many refused checks of one code: it answers that 404 for a while.',
        querystring: SHARE_CHECK_QUERY,
        body: SHARE_CHECK,
        response: {
          200: {
            description: 'What the code’s purpose shows, in the language asked',
            ...SHARE_CHECK_ANSWER,
          },
          ...PROBLEM_RESPONSES,
        },
      },
      config: limited,
    },
    async (request, reply) => {
      const locale = request.headers.locale;
      const language = pickLanguage(
        request.query.lang,
        Array.isArray(locale) ? locale[0] : locale,
        request.headers['accept-language'],
      );
      const answer = await shareCodes.check(request.body, { address: request.ip, language });
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );
}
