import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DefinitionBundle } from '../../core/definitions/types';
import { DEFINITIONS_ROUTES } from '../api-contract/fixed-routes';
import type { ValidatorKind, ValidatorSet } from '../definitions/validators';
import { ApiProblem, ERROR_CODES } from '../http/api-error';

/**
 * A response body that never changes while the server runs: serialised, hashed and compressed
 * once, on first use, instead of on every request (the bundle is 0.2 MB of JSON, an entity's
 * validator module up to 0.5 MB of JavaScript; gzip makes them a tenth of that).
 */
interface FixedBody {
  etag: string;
  raw: Buffer;
  gzip(): Buffer;
}

function fixedBody(text: string, etag?: string): FixedBody {
  const raw = Buffer.from(text, 'utf8');
  let gzip: Buffer | undefined;
  return {
    etag: etag ?? `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`,
    raw,
    gzip: () => (gzip ??= gzipSync(raw, { level: 6 })),
  };
}

/** Whether the client takes gzip (`Accept-Encoding`, RFC 9110 section 12.5.3; q=0 refuses). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name.trim() === 'gzip') return accepted;
    if (name.trim() === '*') star = accepted;
  }
  return star;
}

/**
 * Sends a fixed body, revalidated on every use (`no-cache`: a new version is seen at once) and
 * answered with 304 while unchanged, gzip-compressed when the client takes it.
 */
function sendFixed(request: FastifyRequest, reply: FastifyReply, body: FixedBody, type: string) {
  reply
    .header('etag', body.etag)
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding');
  if (request.headers['if-none-match'] === body.etag) return reply.status(304).send();
  reply.header('content-type', type);
  if (acceptsGzip(request.headers['accept-encoding'])) {
    return reply.header('content-encoding', 'gzip').send(body.gzip());
  }
  return reply.send(body.raw);
}

/**
 * Hands the definitions to the browser at run time (a new catalogue file needs a restart,
 * never a rebuild), and the precompiled validator modules it imports under its strict CSP.
 */
export async function definitionsPlugin(
  app: FastifyInstance,
  options: { bundle: DefinitionBundle; validators: ValidatorSet },
) {
  let bundle: FixedBody | undefined;
  app.get('/', DEFINITIONS_ROUTES.bundle, async (request, reply) => {
    bundle ??= fixedBody(JSON.stringify(options.bundle), `"${options.bundle.version}"`);
    return sendFixed(request, reply, bundle, 'application/json; charset=utf-8');
  });

  // The modules are generated once at start (compileValidators); their ETag is their own hash,
  // so a new server version that generates different code is never answered with 304.
  const modules = new Map<string, FixedBody>();
  app.get<{ Params: { kind: string; file: string } }>(
    '/validators/:kind/:file',
    DEFINITIONS_ROUTES.validator,
    async (request, reply) => {
      const { kind, file } = request.params;
      const id = file.endsWith('.js') ? file.slice(0, -3) : '';
      const key = `${kind}/${id}`;
      let body = modules.get(key);
      if (!body) {
        const source =
          kind === 'catalog' || kind === 'schema'
            ? options.validators.module(kind as ValidatorKind, id)
            : undefined;
        if (!source) throw new ApiProblem(404, ERROR_CODES.notFound);
        body = fixedBody(source);
        modules.set(key, body);
      }
      return sendFixed(request, reply, body, 'text/javascript; charset=utf-8');
    },
  );
}
