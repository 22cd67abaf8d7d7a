import {
  UUID,
  NO_CONTENT,
  PROBLEM_RESPONSES,
  stringParams,
  requireAnyRole,
  requireSignedIn,
  ApiProblem,
  ERROR_CODES,
  type CredentialStore,
  type IdentityAccount,
} from '../../../server/module';
import type { FastifyInstance } from 'fastify';
import type { DocumentAccountDirectory } from './directory';

/**
 * Passwords through the API: a signed-in person changes their own (the current one is asked
 * for again, the group's policy applies); an administrator holding connectid-account-security
 * gives an account a password, by default one to change at the next sign-in.
 */
export async function passwordsPlugin(
  app: FastifyInstance,
  options: { directory: DocumentAccountDirectory; credentials: CredentialStore },
) {
  const { directory, credentials } = options;
  /** Sets the account's password under its group's policy (ApiProblem 400 when it breaks it). */
  const setPassword = async (account: IdentityAccount, password: string) => {
    const policy = await directory.policyFor(account.id);
    await credentials.setPassword(account.id, account.loginIdentifier, password, policy);
  };

  const done = { 204: NO_CONTENT, ...PROBLEM_RESPONSES };
  const own = {
    tags: ['connectid'],
    summary: "Changes the caller's own password (the current one is asked for again)",
    body: {
      type: 'object',
      required: ['currentPassword', 'newPassword'],
      properties: { currentPassword: { type: 'string' }, newPassword: { type: 'string' } },
    },
    response: done,
  };
  app.post('/profile/password', { schema: own }, async (request, reply) => {
    const principal = requireSignedIn(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const current = typeof body.currentPassword === 'string' ? body.currentPassword : '';
    const next = typeof body.newPassword === 'string' ? body.newPassword : '';
    const account = await directory.findById(principal.subject);
    if (!account) throw new ApiProblem(404, ERROR_CODES.notFound);
    const outcome = await credentials.verify(account.id, current);
    if (outcome === 'locked') throw new ApiProblem(429, 'ACCOUNT_LOCKED');
    if (outcome !== 'ok') {
      throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
        { path: '/currentPassword', rule: 'currentPassword' },
      ]);
    }
    await setPassword(account, next);
    // A change the administrator asked for, done from the profile, need not be asked again.
    await directory.clearSecurityFlag(account.id, 'forcePasswordChange');
    return reply.status(204).send();
  });

  app.post<{ Params: { id: string } }>(
    '/account/:id/password',
    {
      schema: {
        tags: ['connectid'],
        summary: 'Gives an account a password (connectid-account-security)',
        params: stringParams('id'),
        body: {
          type: 'object',
          required: ['password'],
          properties: {
            password: { type: 'string' },
            temporary: {
              type: 'boolean',
              default: true,
              description: 'To be changed at the next sign-in',
            },
          },
        },
        response: done,
      },
    },
    async (request, reply) => {
      requireAnyRole(request, ['connectid-account-security']);
      if (!UUID.test(request.params.id)) throw new ApiProblem(404, ERROR_CODES.notFound);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const password = typeof body.password === 'string' ? body.password : '';
      const account = await directory.findById(request.params.id);
      if (!account) throw new ApiProblem(404, ERROR_CODES.notFound);
      await setPassword(account, password);
      if (body.temporary !== false) await credentials.forcePasswordChange(account.id, true);
      return reply.status(204).send();
    },
  );
}
