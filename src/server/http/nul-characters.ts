import type { FastifyInstance } from 'fastify';
import { ApiProblem, ERROR_CODES } from './api-error';

/** The rule a field breaks by holding a NUL character; its text is `validation.nulCharacter`. */
export const NUL_CHARACTER_RULE = 'nulCharacter';

const escapeToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Where the first NUL character (U+0000) of a value is, as a JSON pointer (`''` for the value
 * itself), in a string or in any key or string of its arrays and objects; undefined when there
 * is none. Walked without recursion: a body nested thousands deep is only the sender's mistake.
 */
export function nulCharacterAt(value: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length > 0) {
    const [item, pointer] = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return pointer;
    } else if (Array.isArray(item)) {
      item.forEach((element, index) => pending.push([element, `${pointer}/${index}`]));
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, element] of Object.entries(item)) {
        const at = `${pointer}/${escapeToken(key)}`;
        if (key.includes('\u0000')) return at;
        pending.push([element, at]);
      }
    }
  }
  return undefined;
}

/**
 * Refuses, before any route reads it, a request with a NUL character in its path parameters,
 * its query or anywhere in its body: PostgreSQL's text and jsonb cannot hold one, so such a
 * value would reach the database only to fail there (a 500, after some of the request's work).
 * One check for every route, answered as a translated 400 naming the field; nothing is read
 * or written. A multipart body (an upload) is not parsed here: its file name is cleaned where
 * it is read (plugins/media.ts).
 */
export function installNulCharacterRefusal(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const pointer = nulCharacterAt(part);
      if (pointer !== undefined) {
        throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
          { path: pointer || '/', rule: NUL_CHARACTER_RULE },
        ]);
      }
    }
  });
}
