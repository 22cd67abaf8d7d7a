import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  arrayOf,
  DATE_TIME,
  NO_CONTENT,
  NULLABLE_DATE_TIME,
  objectSchema,
  PROBLEM_RESPONSES,
  stringParams,
} from '../api-contract/common';
import { requestOrigin } from '../audit/log';
import { requireSignedIn } from '../auth/plugin';
import { UUID } from '../db/ids';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { AccountDirectory } from './directory';
import type { AccountSessions } from './sessions';
import { identityDb, type IdentityKysely } from './tables';

export interface AccountPluginOptions {
  db: IdentityKysely;
  sessions: AccountSessions;
  directory: AccountDirectory;
  /** The identity server's token endpoint, where a service's credentials are used. */
  tokenUrl: string;
}

const STRING = { type: 'string' } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;

const SESSION = objectSchema(
  ['id', 'device', 'addressClass', 'signedInAt', 'lastUsedAt', 'method', 'current'],
  {
    id: { type: 'string', format: 'uuid' },
    device: { type: 'string', description: 'Browser and system in English words' },
    browser: { type: 'string', description: 'The browser, or `unknown`' },
    os: { type: 'string', description: 'The system, or `unknown`' },
    addressClass: {
      type: 'string',
      description: 'The network: an IPv4 /24, an IPv6 /48, or `local`',
    },
    signedInAt: DATE_TIME,
    lastUsedAt: DATE_TIME,
    method: { type: 'string', enum: ['password', 'passkey'] },
    current: { type: 'boolean', description: "The session of this request's token" },
  },
);

/**
 * The signed-in person's own sessions and, for a service account, its own API credentials
 * (docs/identity.md, "Sessions"). Only their own: a session of someone else is not found.
 */
export async function accountSessionsPlugin(app: FastifyInstance, options: AccountPluginOptions) {
  const { sessions, directory, tokenUrl } = options;
  const db = identityDb(options.db);
  const schema = (summary: string, response: object, params?: object) => ({
    schema: { tags: ['account'], summary, ...(params ? { params } : {}), response },
  });
  const endedBy = (request: FastifyRequest) => {
    const principal = requireSignedIn(request);
    return { principal, by: requestOrigin(request, principal) };
  };

  app.get(
    '/account/sessions',
    schema("The person's sessions: device, network, signed in, last used", {
      200: objectSchema(['items'], { items: arrayOf(SESSION) }),
      ...PROBLEM_RESPONSES,
    }),
    async (request, reply) => {
      const principal = requireSignedIn(request);
      reply.header('cache-control', 'no-store');
      return { items: await sessions.list(principal.subject, principal.sessionId) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/account/sessions/:id',
    schema(
      "Ends one of the person's sessions: its tokens are refused at once",
      { 204: NO_CONTENT, ...PROBLEM_RESPONSES },
      stringParams('id'),
    ),
    async (request, reply) => {
      const { principal, by } = endedBy(request);
      if (!(await sessions.end(principal.subject, request.params.id, by)))
        throw new ApiProblem(404, ERROR_CODES.notFound);
      return reply.status(204).send();
    },
  );

  app.post(
    '/account/sessions/end-others',
    schema("Ends every session of the person but this request's", {
      200: objectSchema(['ended'], { ended: { type: 'integer', minimum: 0 } }),
      ...PROBLEM_RESPONSES,
    }),
    async (request) => {
      const { principal, by } = endedBy(request);
      // "Every other" is said from a sign-in session: a token of none (a service's) keeps no
      // session of its own, and would end them all.
      if (!principal.sessionId) throw new ApiProblem(404, ERROR_CODES.notFound);
      return { ended: await sessions.endOthers(principal.subject, principal.sessionId, by) };
    },
  );

  app.get(
    '/account/api-credentials',
    schema("The signed-in service account's own API credentials: never the secret", {
      200: objectSchema(['service', 'active', 'clientId', 'tokenUrl'], {
        service: { type: 'boolean', description: 'A service account: it may hold credentials' },
        active: { type: 'boolean' },
        clientId: STRING,
        issuedAt: NULLABLE_DATE_TIME,
        issuedBy: { ...NULLABLE_STRING, description: 'Who issued them (a name)' },
        revokedAt: NULLABLE_DATE_TIME,
        revokedBy: { ...NULLABLE_STRING, description: 'Who revoked them (a name)' },
        tokenUrl: STRING,
      }),
      ...PROBLEM_RESPONSES,
    }),
    async (request, reply) => {
      const principal = requireSignedIn(request);
      const account = await directory.findById(principal.subject);
      // Credentials belong to accounts of the directory, whose ids are UUIDs.
      const row = UUID.test(principal.subject)
        ? await db
            .selectFrom('service_credential')
            .selectAll()
            .where('account_id', '=', principal.subject)
            .executeTakeFirst()
        : undefined;
      const nameOf = async (id: string | null | undefined) =>
        id ? ((await directory.findById(id))?.name ?? null) : null;
      reply.header('cache-control', 'no-store');
      return {
        service: Boolean(account?.service),
        active: Boolean(row?.secret_hash),
        clientId: principal.subject,
        issuedAt: row ? new Date(row.issued_at).toISOString() : null,
        issuedBy: await nameOf(row?.issued_by),
        revokedAt: row?.revoked_at ? new Date(row.revoked_at).toISOString() : null,
        revokedBy: await nameOf(row?.revoked_by),
        tokenUrl,
      };
    },
  );
}
