import type { FastifyInstance } from 'fastify';
import { ApiProblem, ERROR_CODES } from './api-error';

const escapeToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Where the first NUL character of a value is, as a JSON pointer (`''`: the value itself).
 * Walked without recursion: a body nested thousands deep is only the sender's mistake.
 */
function nulCharacterAt(value: unknown): string | undefined {
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
 * Refuses a request with a NUL character in its parameters, query or body (a 400 naming the
 * field): PostgreSQL's text and jsonb cannot hold one. Uploads are cleaned in plugins/media.ts.
 */
export function installNulCharacterRefusal(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const pointer = nulCharacterAt(part);
      if (pointer !== undefined)
        throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
          { path: pointer || '/', rule: 'nulCharacter' },
        ]);
    }
  });
}
