import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DefinitionBundle } from '../../core/definitions/types';
import {
  ANY_OBJECT,
  arrayOf,
  objectSchema,
  PROBLEM_RESPONSES,
  stringParams,
} from '../api-contract/common';
import { documentPart, portalIndex } from '../definitions/portal-parts';
import type { ValidatorKind, ValidatorSet } from '../definitions/validators';
import { ApiProblem, ERROR_CODES } from '../http/api-error';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Tens of milliseconds on a 0.25 MB module, where 11 takes seconds for 10-15 % fewer bytes. */
const FIXED_BROTLI_QUALITY = 6;

type Encoding = 'br' | 'gzip';

/**
 * A body that never changes while the server runs: hashed and compressed once, on first use
 * (off the event loop; requests arriving meanwhile share it), not on every request.
 */
function fixedBody(text: string, etag?: string) {
  const raw = Buffer.from(text, 'utf8');
  const encodings = new Map<Encoding, Promise<Buffer>>();
  const compress = (encoding: Encoding) =>
    encoding === 'br'
      ? brotli(raw, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: FIXED_BROTLI_QUALITY,
            [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        })
      : gzipped(raw, { level: 9 });
  return {
    etag: etag ?? `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`,
    raw,
    encoded(encoding: Encoding): Promise<Buffer> {
      if (!encodings.has(encoding)) encodings.set(encoding, compress(encoding));
      return encodings.get(encoding)!;
    },
  };
}

/** The encoding `Accept-Encoding` (RFC 9110 12.5.3) prefers: brotli, else gzip, else none. */
function preferredEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    weights.set(name.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  const best = (['br', 'gzip'] as const).filter((e) => weight(e) > 0);
  best.sort((a, b) => weight(b) - weight(a));
  return best[0];
}

/**
 * Sends the fixed body of a key, made on first use from its text (none: 404), revalidated on every
 * use (304 while unchanged). Its own `content-encoding` keeps the server's compression plugin
 * from compressing it again.
 */
function fixedBodies() {
  const bodies = new Map<string, ReturnType<typeof fixedBody>>();
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    type: string,
    text: () => string | undefined,
    etag?: string,
  ) => {
    let body = bodies.get(key);
    if (!body) {
      const made = text();
      if (made === undefined) throw new ApiProblem(404, ERROR_CODES.notFound);
      body = fixedBody(made, etag);
      bodies.set(key, body);
    }
    reply
      .header('etag', body.etag)
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === body.etag) return reply.status(304).send();
    reply.header('content-type', type);
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!encoding) return reply.send(body.raw);
    return reply.header('content-encoding', encoding).send(await body.encoded(encoding));
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';
const JS_TYPE = 'text/javascript; charset=utf-8';

/** Every answer here is revalidated with its ETag: 304 while unchanged. */
const NOT_MODIFIED = { 304: { description: 'Not modified', type: 'null' } } as const;
const CACHED = 'Revalidated with ETag (304 while unchanged); brotli or gzip when accepted.';
const ES_MODULE = {
  200: {
    description: 'An ES module',
    content: { 'text/javascript': { schema: { type: 'string' } } },
  },
  ...NOT_MODIFIED,
  ...PROBLEM_RESPONSES,
} as const;

/** `<id>.js` -> `<id>`; anything else names nothing. */
export function moduleName(file: string): string {
  return file.endsWith('.js') ? file.slice(0, -3) : '';
}

/**
 * The definitions for the browser at run time: the whole bundle, or the index and one part per
 * document type (definitions/portal-parts.ts), and the precompiled validator modules.
 */
export async function definitionsPlugin(
  app: FastifyInstance,
  options: { bundle: DefinitionBundle; validators: ValidatorSet },
) {
  const { bundle, validators } = options;
  const send = fixedBodies();
  const version = `"${bundle.version}"`;

  const bundleSchema = {
    tags: ['definitions'],
    summary: 'The definitions bundle: modules, catalogues, schemas, workflows, translations',
    description: CACHED,
    response: {
      200: {
        description: 'The bundle',
        ...objectSchema([], {
          modules: arrayOf(ANY_OBJECT),
          catalogs: arrayOf(ANY_OBJECT),
          schemas: arrayOf(ANY_OBJECT),
          workflows: arrayOf(ANY_OBJECT),
          translations: ANY_OBJECT,
          version: { type: 'string' },
        }),
      },
      ...NOT_MODIFIED,
    },
  } as const;
  app.get('/', { schema: bundleSchema }, async (request, reply) =>
    send(request, reply, 'bundle', JSON_TYPE, () => JSON.stringify(bundle), version),
  );

  const indexSchema = {
    tags: ['definitions'],
    summary: 'What every page of the portal needs: modules, catalogues, workflows, shared texts',
    description:
      "The bundle without the entities' schemas and their own texts (but for their titles and " +
      "the labels of their lists, menu entries and screens), with each entity's sections; " +
      `the portal fetches a document type's part when one of its pages opens. ${CACHED}`,
    response: {
      200: {
        description: 'The index',
        ...objectSchema([], {
          version: { type: 'string' },
          modules: arrayOf(ANY_OBJECT),
          catalogs: arrayOf(ANY_OBJECT),
          workflows: arrayOf(ANY_OBJECT),
          documents: {
            type: 'object',
            description: 'Entity id -> its sections in order (id, officer, internal, when)',
            additionalProperties: arrayOf(ANY_OBJECT),
          },
          translations: ANY_OBJECT,
        }),
      },
      ...NOT_MODIFIED,
    },
  } as const;
  app.get('/index', { schema: indexSchema }, async (request, reply) =>
    send(request, reply, 'index', JSON_TYPE, () => JSON.stringify(portalIndex(bundle))),
  );

  app.get<{ Params: { id: string } }>(
    '/documents/:id',
    {
      schema: {
        tags: ['definitions'],
        summary: "One document type's entity definition and its own texts, in every language",
        description: CACHED,
        params: stringParams('id'),
        response: {
          200: {
            description: 'The document type',
            ...objectSchema([], { schema: ANY_OBJECT, translations: ANY_OBJECT }),
          },
          ...NOT_MODIFIED,
          ...PROBLEM_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      return send(request, reply, `document/${id}`, JSON_TYPE, () => {
        const found = documentPart(bundle, id);
        return found && JSON.stringify(found);
      });
    },
  );

  // Their ETag is their own hash: a server generating different code never answers 304.
  app.get<{ Params: { kind: string; file: string } }>(
    '/validators/:kind/:file',
    {
      schema: {
        tags: ['definitions'],
        summary:
          "A precompiled validator module: a catalogue entry's, or an entity's whole document (`validate`, also the default export)",
        params: objectSchema(['kind', 'file'], {
          kind: { type: 'string', enum: ['schema', 'catalog'] },
          file: { type: 'string', description: '`<id>.js`' },
        }),
        response: ES_MODULE,
      },
    },
    async (request, reply) => {
      const { kind, file } = request.params;
      const id = moduleName(file);
      return send(request, reply, `${kind}/${id}`, JS_TYPE, () =>
        kind === 'catalog' || kind === 'schema'
          ? validators.module(kind as ValidatorKind, id)
          : undefined,
      );
    },
  );

  app.get<{ Params: { entity: string; file: string } }>(
    '/validators/schema/:entity/:file',
    {
      schema: {
        tags: ['definitions'],
        summary:
          "The precompiled validators of one section of an entity: `validate`, `schema` and RJSF's `rjsf` functions",
        params: objectSchema(['entity', 'file'], {
          entity: { type: 'string' },
          file: { type: 'string', description: '`<section id>.js`' },
        }),
        response: ES_MODULE,
      },
    },
    async (request, reply) => {
      const { entity, file } = request.params;
      const section = moduleName(file);
      return send(request, reply, `section/${entity}/${section}`, JS_TYPE, () =>
        validators.sectionModule(entity, section),
      );
    },
  );
}
