import {
  UUID,
  DATE_TIME,
  NO_CONTENT,
  NULLABLE_DATE_TIME,
  PROBLEM_RESPONSES,
  stringParams,
  requireAnyRole,
  ApiProblem,
  ERROR_CODES,
  type Principal,
  mayHoldCredentials,
  type ServiceCredentials,
} from '../../../server/module';
import type { FastifyInstance } from 'fastify';
import type { DocumentAccountDirectory } from './directory';

/** The history lines of the account (`actions.<name>` in the texts). */
export const CREDENTIALS_ISSUED = 'api-credentials-issued';
export const CREDENTIALS_REVOKED = 'api-credentials-revoked';

/** The administrator as the account's history names them. */
const authorOf = (principal: Principal) => ({
  subject: principal.subject,
  name: principal.name ?? principal.preferredUsername ?? principal.subject,
  email: principal.email ?? null,
  mobile: principal.phoneNumber ?? null,
});

export interface ApiCredentialOptions {
  directory: DocumentAccountDirectory;
  serviceClients: ServiceCredentials;
  /** The role that manages accounts' credentials (the account workflow's `security` role). */
  role: string;
  /** The identity server's token endpoint, where the credentials are used. */
  tokenUrl: string;
}

/**
 * A service account's API credentials through the API (read, issue: the secret in this answer
 * only, revoke), each a line of the account's history; only a service that may sign in holds any.
 */
export async function apiCredentialsPlugin(app: FastifyInstance, options: ApiCredentialOptions) {
  const { directory, serviceClients, role, tokenUrl } = options;

  const accountOf = async (id: string) => {
    const account = UUID.test(id) ? await directory.findById(id) : undefined;
    if (!account) throw new ApiProblem(404, ERROR_CODES.notFound);
    return account;
  };

  const schema = (summary: string, response: object) => ({
    schema: { tags: ['connectid'], summary, params: stringParams('id'), response },
  });
  app.get<{ Params: { id: string } }>(
    '/account/:id/api-credentials',
    schema("A service account's API credentials: active or not, never the secret", {
      200: {
        type: 'object',
        properties: {
          clientId: { type: 'string', description: "The OAuth client id: the account's id" },
          service: {
            type: 'boolean',
            description: 'A service account that may sign in: may hold some',
          },
          active: { type: 'boolean' },
          issuedAt: NULLABLE_DATE_TIME,
          revokedAt: NULLABLE_DATE_TIME,
          tokenUrl: { type: 'string', description: 'Where the client-credentials grant is asked' },
        },
      },
      ...PROBLEM_RESPONSES,
    }),
    async (request) => {
      requireAnyRole(request, [role]);
      const account = await accountOf(request.params.id);
      const status = await serviceClients.status(account.id);
      return { ...status, service: mayHoldCredentials(account), tokenUrl };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/account/:id/api-credentials',
    schema('Issues API credentials for a service account, replacing any it had', {
      201: {
        description: 'The secret, shown this once: only its hash is kept',
        type: 'object',
        properties: {
          clientId: { type: 'string' },
          clientSecret: { type: 'string' },
          issuedAt: DATE_TIME,
          tokenUrl: { type: 'string' },
        },
      },
      ...PROBLEM_RESPONSES,
    }),
    async (request, reply) => {
      const principal = requireAnyRole(request, [role]);
      const account = await accountOf(request.params.id);
      if (!mayHoldCredentials(account))
        throw new ApiProblem(409, 'NOT_A_SERVICE_ACCOUNT', { login: account.loginIdentifier });
      const issued = await serviceClients.issue(account.id, principal.subject);
      await directory.recordOnAccount(account.id, CREDENTIALS_ISSUED, authorOf(principal));
      // The secret must not rest in a cache or a proxy's log of responses.
      reply.header('cache-control', 'no-store');
      return reply.status(201).send({ ...issued, tokenUrl });
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/account/:id/api-credentials',
    schema("Revokes a service account's API credentials", {
      204: NO_CONTENT,
      ...PROBLEM_RESPONSES,
    }),
    async (request, reply) => {
      const principal = requireAnyRole(request, [role]);
      const account = await accountOf(request.params.id);
      if (!(await serviceClients.revoke(account.id, principal.subject)))
        throw new ApiProblem(404, 'NO_API_CREDENTIALS');
      await directory.recordOnAccount(account.id, CREDENTIALS_REVOKED, authorOf(principal));
      return reply.status(204).send();
    },
  );
}
