import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  ANY_OBJECT,
  arrayOf,
  DATE_TIME,
  NO_CONTENT,
  NULLABLE_DATE_TIME,
  objectSchema,
  PROBLEM_RESPONSES,
  stringParams,
  UUID_STRING,
} from '../api-contract/common';
import type { AuditLog } from '../audit/log';
import { requestOrigin } from '../audit/log';
import { requireSignedIn } from '../auth/plugin';
import { UUID } from '../db/ids';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { AccountDirectory, IdentityAccount } from './directory';
import { PASSKEY_NAME_MAX, type PasskeyStore } from './passkeys';
import { RECOVERY_CODE_COUNT, type RecoveryCodes } from './recovery-codes';

const PASSKEY = objectSchema(['id', 'name', 'createdAt', 'lastUsedAt', 'backedUp'], {
  id: UUID_STRING,
  name: { type: 'string' },
  createdAt: DATE_TIME,
  lastUsedAt: NULLABLE_DATE_TIME,
  backedUp: { type: 'boolean', description: 'Synced to other devices by the platform' },
});
const TAGS = ['account'];

/**
 * The signed-in person's passkeys and recovery codes (docs/identity.md, "Passkeys and recovery
 * codes"), from the security page: their own only, whoever they are. Registering, removing and
 * making new codes are audited (kind `account`).
 */
export async function passkeysPlugin(
  app: FastifyInstance,
  options: {
    directory: AccountDirectory;
    passkeys: PasskeyStore;
    recoveryCodes: RecoveryCodes;
    audit?: AuditLog;
  },
) {
  const { directory, passkeys, recoveryCodes, audit } = options;
  /** The caller's own account (a service's token has none to register passkeys for). */
  const ownAccount = async (request: FastifyRequest): Promise<IdentityAccount> => {
    const principal = requireSignedIn(request);
    const account = await directory.findById(principal.subject);
    if (!account || account.service) throw new ApiProblem(404, ERROR_CODES.notFound);
    return account;
  };
  const record = async (request: FastifyRequest, action: string, target?: string) =>
    audit?.recordNow([
      {
        ...requestOrigin(request, requireSignedIn(request)),
        kind: 'account',
        action,
        ...(target ? { target } : {}),
      },
    ]);

  app.get(
    '/passkeys',
    {
      schema: {
        tags: TAGS,
        summary: "The caller's passkeys",
        response: {
          200: objectSchema(['items'], { items: arrayOf(PASSKEY) }),
          ...PROBLEM_RESPONSES,
        },
      },
    },
    async (request) => ({ items: await passkeys.list((await ownAccount(request)).id) }),
  );

  app.post(
    '/passkeys/options',
    {
      schema: {
        tags: TAGS,
        summary: 'Options for the browser to make a passkey (WebAuthn creation options)',
        response: { 200: ANY_OBJECT, ...PROBLEM_RESPONSES },
      },
    },
    async (request) => passkeys.registrationOptions(await ownAccount(request)),
  );

  app.post(
    '/passkeys',
    {
      schema: {
        tags: TAGS,
        summary: 'Keeps the passkey the browser made from the last options',
        body: objectSchema(['name', 'response'], {
          name: { type: 'string' },
          response: { ...ANY_OBJECT, description: 'The browser\u2019s RegistrationResponseJSON' },
        }),
        response: { 201: PASSKEY, ...PROBLEM_RESPONSES },
      },
    },
    async (request, reply) => {
      const account = await ownAccount(request);
      const body = request.body as { name: string; response: RegistrationResponseJSON };
      const name = body.name.trim();
      if (name.length === 0 || name.length > PASSKEY_NAME_MAX)
        throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
          {
            path: '/name',
            rule: name.length === 0 ? 'required' : 'maxLength',
            params: { limit: PASSKEY_NAME_MAX },
          },
        ]);
      const made = await passkeys.register(account.id, name, body.response);
      if (!made) throw new ApiProblem(400, ERROR_CODES.passkeyNotVerified);
      await record(request, 'account.passkey-added', made.id);
      return reply.status(201).send(made);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/passkeys/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Removes one of the caller\u2019s passkeys',
        params: stringParams('id'),
        response: { 204: NO_CONTENT, ...PROBLEM_RESPONSES },
      },
    },
    async (request, reply) => {
      const account = await ownAccount(request);
      const { id } = request.params;
      if (!UUID.test(id) || !(await passkeys.remove(account.id, id)))
        throw new ApiProblem(404, ERROR_CODES.notFound);
      await record(request, 'account.passkey-removed', id);
      return reply.status(204).send();
    },
  );

  const RECOVERY_STATUS = objectSchema(['remaining', 'createdAt'], {
    remaining: { type: 'integer', minimum: 0, maximum: RECOVERY_CODE_COUNT },
    createdAt: NULLABLE_DATE_TIME,
  });
  app.get(
    '/recovery-codes',
    {
      schema: {
        tags: TAGS,
        summary: 'How many of the caller\u2019s recovery codes are left (never the codes)',
        response: { 200: RECOVERY_STATUS, ...PROBLEM_RESPONSES },
      },
    },
    async (request) => recoveryCodes.status((await ownAccount(request)).id),
  );

  app.post(
    '/recovery-codes',
    {
      schema: {
        tags: TAGS,
        summary: 'Makes ten new recovery codes, replacing the old ones; shown this once',
        response: {
          200: objectSchema(['codes'], {
            codes: { ...arrayOf({ type: 'string' }), minItems: 10, maxItems: 10 },
          }),
          ...PROBLEM_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const account = await ownAccount(request);
      const codes = await recoveryCodes.generate(account.id);
      await record(request, 'account.recovery-codes-made');
      return reply.header('cache-control', 'no-store').send({ codes });
    },
  );
}
