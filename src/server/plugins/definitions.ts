import type { FastifyInstance } from 'fastify';
import type { DefinitionBundle } from '../../core/definitions/types';
import type { ValidatorKind, ValidatorSet } from '../definitions/validators';
import { ApiProblem, ERROR_CODES } from '../http/api-error';

/**
 * Hands the definitions to the browser at run time (a new catalogue file needs a restart,
 * never a rebuild), and the precompiled validator modules it imports under its strict CSP.
 */
export async function definitionsPlugin(
  app: FastifyInstance,
  options: { bundle: DefinitionBundle; validators: ValidatorSet },
) {
  const etag = `"${options.bundle.version}"`;
  app.get('/', async (request, reply) => {
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return options.bundle;
  });

  app.get<{ Params: { kind: string; file: string } }>(
    '/validators/:kind/:file',
    async (request, reply) => {
      const { kind, file } = request.params;
      const id = file.endsWith('.js') ? file.slice(0, -3) : '';
      const source =
        kind === 'catalog' || kind === 'schema'
          ? options.validators.module(kind as ValidatorKind, id)
          : undefined;
      if (!source) throw new ApiProblem(404, ERROR_CODES.notFound);
      return reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('etag', etag)
        .send(source);
    },
  );
}
