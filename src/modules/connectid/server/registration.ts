import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { checkPassword } from '../../../core/identity/password-policy';
import {
  ANY_OBJECT,
  PROBLEM_RESPONSES,
  TRANSLATIONS_SCHEMA,
  UUID_STRING,
  type Principal,
  CHALLENGE_CHANNELS,
  CHALLENGE_ERRORS,
  isCatalogueChannel,
  normaliseDestination,
  verifyChallenge,
  type ChallengeChannel,
  entriesValidAt,
  entriesValidAtWith,
  type ServerConfig,
  type Database,
  type DocumentService,
  ApiProblem,
  ERROR_CODES,
  type FieldProblem,
  type CredentialStore,
} from '../../../server/module';
import { TRANSLATIONS_FIELD } from '../../../core/i18n/localized';
import { groupOfUserType, text } from './account-fields';
import { correctionRoutes } from './correction';
import { isObject, typeProblems } from './registration-checks';
import type { DeclaredAccount } from './declarations';
import type { DocumentAccountDirectory } from './directory';

/** The catalogue of the countries an address names (the account schema's `country` widget). */
const COUNTRY_CATALOG = 'country';

/**
 * Where the code must have gone, normalised as the challenge keeps it: the mobile, the e-mail,
 * or the catalogue entry the declared field names (`confirmationCodes`). '' matches no challenge:
 * naming nothing there is refused like a wrong code.
 */
function confirmationDestination(
  account: DeclaredAccount,
  channel: ChallengeChannel,
  data: Record<string, unknown>,
): string {
  const pointer = isCatalogueChannel(channel)
    ? account.confirmationCodes?.[channel]
    : channel === 'mobile'
      ? account.mobile
      : account.email;
  const given = pointer ? text(data, pointer) : null;
  return (given && normaliseDestination(channel, given)) || '';
}

/** The account that stands for self-registration in the account's history. */
const REGISTRATION: Principal = {
  subject: 'self-registration',
  name: 'Self-registration',
  roles: ['connectid-account-create'],
};

export interface RegistrationOptions {
  db: Kysely<Database>;
  config: ServerConfig;
  accounts: DocumentService;
  directory: DocumentAccountDirectory;
  credentials: CredentialStore;
}

/**
 * Self-registration (when enabled), signed out: types that allow it decide the mandatory and
 * prohibited fields; a confirmation code through a channel that is on and a password under the
 * joined group's policy are needed. REGISTERED until reviewed; nothing stored on any failure.
 */
export async function registrationPlugin(app: FastifyInstance, options: RegistrationOptions) {
  // The account's declaration (workflows/account.json): its login, mobile, user and identity
  // types, and the fields each type's checks govern. Without an account type, nothing to offer.
  const declared = options.directory.records.account;
  const registrable = () => {
    if (!options.config.selfRegistration || !declared)
      throw new ApiProblem(404, ERROR_CODES.notFound);
    return declared;
  };
  const optionsSchema = {
    tags: ['connectid'],
    summary: 'What a signed-out person may register as (when self-registration is on)',
    response: {
      200: {
        description: 'User types (with their password rules), identity types, channels',
        type: 'object',
        properties: {
          userTypes: { type: 'array', items: ANY_OBJECT },
          identityTypes: { type: 'array', items: ANY_OBJECT },
          channels: ANY_OBJECT,
          confirmationFields: {
            description: 'By catalogue channel (agency, agent, trader): the field naming the entry',
            ...ANY_OBJECT,
          },
          countries: {
            description: 'The countries an address may name (valid now), by code',
            type: 'array',
            items: {
              type: 'object',
              properties: {
                code: { type: 'string' },
                name: { type: 'string' },
                i18n: TRANSLATIONS_SCHEMA,
              },
            },
          },
          developerOutbox: { type: 'string' },
          timeZone: {
            description:
              "The portal's time zone (IANA): the day identity-document dates are checked against",
            type: 'string',
          },
        },
      },
      ...PROBLEM_RESPONSES,
    },
  };
  app.get('/registration/options', { schema: optionsSchema }, async () => {
    const account = registrable();
    // The entries valid now one may register as (`selfRegistration`), in key order.
    const pick = async (catalog: string) =>
      (await entriesValidAtWith(options.db, catalog, new Date(), { selfRegistration: true })).map(
        (entry) => entry.data,
      );
    // Each type with the password rules of the group it joins, so the page can state them
    // before the person chooses a password (the same rules the registration checks below).
    const userTypes = await Promise.all(
      (await pick(account.userType.catalog)).map(async (type) => {
        const group = groupOfUserType(account, type);
        const { code: _policy, ...passwordRules } = (await options.directory.policyForGroup(
          group,
        )) ?? { code: '' };
        return { ...type, passwordRules };
      }),
    );
    // An address names its country by code: the page offers the countries valid now by name,
    // in the language it shows (the types and countries keep their translations, `i18n`).
    const countries = (await entriesValidAt(options.db, COUNTRY_CATALOG, new Date()))
      .map(({ data }) => ({
        code: String(data.code ?? ''),
        name: String(data.name ?? ''),
        ...(data[TRANSLATIONS_FIELD] !== undefined && {
          [TRANSLATIONS_FIELD]: data[TRANSLATIONS_FIELD],
        }),
      }))
      .filter((country) => country.code !== '');
    return {
      userTypes,
      identityTypes: account.identityType ? await pick(account.identityType.catalog) : [],
      channels: options.config.confirmationChannels,
      // The fields whose catalogue entry a catalogue channel sends the code to, as the page
      // names them (the last segment of the declared pointer).
      confirmationFields: Object.fromEntries(
        Object.entries(account.confirmationCodes ?? {}).map(([channel, pointer]) => [
          channel,
          pointer.split('/').pop(),
        ]),
      ),
      countries,
      // The day the page checks an identity document's dates against is the server's.
      timeZone: options.config.timeZone,
      // Outside production, where codes stay in the outbox: the page that shows them.
      ...(options.config.production ? {} : { developerOutbox: '/#/dev/outbox' }),
    };
  });

  const registerSchema = {
    tags: ['connectid'],
    summary: 'Self-registration: an account REGISTERED until reviewed',
    // Nothing `required` nor enumerated here: the handler names every missing field and a
    // channel that is not one with its own rules, in one answer.
    body: {
      type: 'object',
      description: 'All but `channel` are needed',
      properties: {
        data: { $ref: '#/components/schemas/entity.account' },
        password: { type: 'string' },
        challengeId: { type: 'string', description: 'From POST /api/challenge' },
        code: { type: 'string', description: 'The code sent through the channel' },
        channel: {
          type: 'string',
          default: 'mobile',
          description:
            'Where the code went: `mobile` (the number), `email` (the address), or `agency`, `agent`, `trader` (the contact of the entry the data names)',
        },
      },
    },
    response: {
      201: {
        description: 'Registered',
        type: 'object',
        properties: { id: UUID_STRING, status: { type: 'string' } },
      },
      ...PROBLEM_RESPONSES,
    },
  };
  app.post('/registration', { schema: registerSchema }, async (request, reply) => {
    const account = registrable();
    if (request.principal) throw new ApiProblem(403, 'ALREADY_SIGNED_IN');
    const body = (request.body ?? {}) as Record<string, unknown>;
    const data = isObject(body.data) ? body.data : {};
    const problems: FieldProblem[] = [];
    const now = new Date();

    const userType = await typeProblems(
      options.db,
      account,
      data,
      now,
      options.config.timeZone,
      problems,
    );

    const login = text(data, account.key.pointer) ?? '';
    const password = typeof body.password === 'string' ? body.password : '';
    const group = groupOfUserType(account, userType);
    const policy = await options.directory.policyForGroup(group);
    for (const problem of checkPassword(policy, password, login)) {
      problems.push({ path: '/password', rule: problem.rule, params: problem.params });
    }
    if (!password) problems.push({ path: '/password', rule: 'required' });

    // The channel the code went through: the mobile number unless the body says.
    const channel =
      body.channel === undefined ? 'mobile' : CHALLENGE_CHANNELS.find((c) => c === body.channel);
    if (!channel || !options.config.confirmationChannels[channel])
      throw new ApiProblem(400, CHALLENGE_ERRORS.channelOff, { channel: String(body.channel) });
    const destination = confirmationDestination(account, channel, data);
    const challengeId = typeof body.challengeId === 'string' ? body.challengeId : '';
    const code = typeof body.code === 'string' ? body.code.trim() : '';
    if (!code || !challengeId) problems.push({ path: '/code', rule: 'confirmationCodeMissing' });
    if (problems.length) throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, problems);

    // Checked first without using the code up, so a registration refused below can be retried.
    const check = await verifyChallenge(options.db, challengeId, code, {
      destination,
      purpose: 'registration',
      consume: false,
    });
    if (check !== 'ok') {
      throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
        { path: '/code', rule: 'confirmationCode' },
      ]);
    }
    const created = await options.accounts.create(account.type, REGISTRATION, {
      action: 'register',
      data,
    });
    await options.credentials.setPassword(created.id, login, password, policy);
    await verifyChallenge(options.db, challengeId, code, { destination, purpose: 'registration' });
    return reply.status(201).send({ id: created.id, status: created.status });
  });

  correctionRoutes(app, { ...options, registrable });
}
