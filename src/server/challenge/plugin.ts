import fs from 'node:fs/promises';
import path from 'node:path';
import { DATE_TIME, PROBLEM_RESPONSES } from '../api-contract/common';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { LANGUAGES, translate, type Language, type TextTree } from '../../core/i18n/translate';
import type { ServerConfig } from '../config';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { requestLanguage } from '../http/language';
import { AttemptThrottle } from '../identity/throttle';
import {
  CHALLENGE_CHANNELS,
  CHALLENGE_ERRORS,
  CHALLENGE_LIMITS,
  catalogueDelivery,
  createChallenge,
  isCatalogueChannel,
  normaliseDestination,
  verifyChallenge,
  verifyProblem,
  type ChallengeChannel,
} from './service';

export interface ChallengeOptions {
  db: Kysely<Database>;
  config: Pick<ServerConfig, 'confirmationChannels' | 'definitionsDir' | 'identity'>;
  /**
   * Texts with a `challenge` namespace (the definitions bundle's translations); read from
   * translations/<lang>/challenge.json under definitionsDir when not given.
   */
  texts?: Partial<Record<Language, TextTree>>;
}

interface ChallengeBody {
  channel: ChallengeChannel;
  destination: string;
  purpose: string;
}

/**
 * The `challenge` backend (prefix /api/challenge): POST / sends a 6-digit code through the
 * outbox; POST /:id/verify checks one without using it up. Nothing here looks at accounts, and
 * an unknown catalogue code gets the same answer: the answers tell nothing about either.
 */
export async function challengePlugin(
  app: FastifyInstance,
  options: ChallengeOptions,
): Promise<void> {
  const texts = options.texts ?? (await readTexts(options.config.definitionsDir));
  // Per client address, across destinations: each code asked for and each wrong code counts.
  const throttle = new AttemptThrottle(options.db, options.config.identity.codeThrottle, 'code');
  const refuseBlocked = async (address: string) => {
    const minutes = await throttle.waitFor(address);
    if (minutes > 0) throw new ApiProblem(429, CHALLENGE_ERRORS.rateLimited, { minutes });
  };
  const text = (language: Language, key: string, params: Record<string, unknown> = {}) =>
    translate(texts, language, `challenge.${key}`, params);

  app.post<{ Body: ChallengeBody }>(
    '/',
    {
      schema: {
        tags: ['challenge'],
        response: {
          201: {
            description: 'Code sent (or kept in the outbox outside production)',
            type: 'object',
            properties: {
              challengeId: { type: 'string' },
              expiresAt: DATE_TIME,
              message: { type: 'string', description: "In the request's language" },
            },
          },
          ...PROBLEM_RESPONSES,
        },
        body: {
          type: 'object',
          required: ['channel', 'destination', 'purpose'],
          additionalProperties: false,
          properties: {
            channel: { type: 'string', enum: [...CHALLENGE_CHANNELS] },
            destination: { type: 'string', minLength: 1, maxLength: 320 },
            purpose: { type: 'string', pattern: '^[a-z][a-z0-9-]{1,39}$' },
          },
        },
      },
    },
    async (request, reply) => {
      await refuseBlocked(request.ip);
      await throttle.fail(request.ip);
      const { channel, purpose } = request.body;
      if (!options.config.confirmationChannels[channel]) {
        throw new ApiProblem(400, CHALLENGE_ERRORS.channelOff, { channel });
      }
      const catalogue = isCatalogueChannel(channel);
      const destination = normaliseDestination(channel, request.body.destination);
      if (!destination) {
        const rule = catalogue ? 'pattern' : channel === 'mobile' ? 'mobileNumber' : 'format_email';
        throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
          { path: '/destination', rule },
        ]);
      }
      const language = requestLanguage(request);
      const minutes = CHALLENGE_LIMITS.ttlMs / 60_000;
      const delivery = catalogue
        ? // The code without its `<channel>:` prefix is the catalogue entry's key.
          ((await catalogueDelivery(options.db, channel, destination.slice(channel.length + 1))) ??
          null)
        : undefined;
      const created = await createChallenge(options.db, {
        channel,
        destination,
        purpose,
        delivery,
        message: {
          subject: text(language, 'message.subject'),
          // `{{code}}` survives translation and is filled in by createChallenge.
          text: text(language, 'message.text', { minutes, code: '{{code}}' }),
        },
      });
      return reply.status(201).send({
        ...created,
        // One text for every catalogue code, known or not, reached by SMS or by e-mail.
        message: text(
          language,
          catalogue ? 'sentToContact' : channel === 'mobile' ? 'sentToMobile' : 'sentToEmail',
        ),
      });
    },
  );

  app.post<{ Params: { id: string }; Body: { code: string } }>(
    '/:id/verify',
    {
      schema: {
        tags: ['challenge'],
        response: {
          200: {
            description: 'The code is right (it is not used up)',
            type: 'object',
            properties: { valid: { type: 'boolean' }, message: { type: 'string' } },
          },
          ...PROBLEM_RESPONSES,
        },
        body: {
          type: 'object',
          required: ['code'],
          additionalProperties: false,
          properties: { code: { type: 'string', pattern: '^[0-9]{6}$' } },
        },
      },
    },
    async (request) => {
      await refuseBlocked(request.ip);
      const result = await verifyChallenge(options.db, request.params.id, request.body.code, {
        consume: false,
      });
      if (result !== 'ok') {
        await throttle.fail(request.ip);
        throw verifyProblem(result);
      }
      return { valid: true, message: text(requestLanguage(request), 'verified') };
    },
  );
}

async function readTexts(definitionsDir: string): Promise<Partial<Record<Language, TextTree>>> {
  const texts: Partial<Record<Language, TextTree>> = {};
  for (const language of LANGUAGES) {
    const file = path.join(definitionsDir, 'translations', language, 'challenge.json');
    try {
      texts[language] = { challenge: JSON.parse(await fs.readFile(file, 'utf8')) as TextTree };
    } catch {
      // A language without the file falls back to English, then to the keys.
    }
  }
  return texts;
}
