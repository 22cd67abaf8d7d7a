import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { Kysely } from 'kysely';
import type { MediaReference } from '../../core/documents/types';
import { objectSchema, PROBLEM_RESPONSES, stringParams, UUID_STRING } from '../api-contract/common';
import { requireSignedIn } from '../auth/plugin';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { invalid } from '../search/compile-search';
import type { AuditLog } from '../audit/log';
import { recordRead } from '../audit/reads';
import { documentNamingUpload } from '../documents/store/audit-lines';

export interface MediaOptions {
  db: Kysely<Database>;
  maxBytes: number;
  /** Accepted content types; the file's first bytes must match its declared type. */
  types: string[];
  /** Whether someone other than the uploader may read a file (an officer, through a document). */
  readable?: (principal: Principal, mediaId: string) => Promise<boolean>;
  /** Where reads of others' uploads are recorded (docs/audit.md); none: not recorded. */
  audit?: AuditLog;
}

/** Magic numbers of the types we accept, so a renamed executable is not taken for a PDF. */
const SIGNATURES: Record<string, number[]> = {
  'application/pdf': [0x25, 0x50, 0x44, 0x46],
  'image/png': [0x89, 0x50, 0x4e, 0x47],
  'image/jpeg': [0xff, 0xd8, 0xff],
};

/** `attachment` with the file's name: an ASCII fallback and the exact name (RFC 5987). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )}`;
}

/**
 * The `media` backend: uploads kept by reference. The uploader reads a file back, and so do the
 * officers who see a document naming it (`readable`).
 */
export async function mediaPlugin(app: FastifyInstance, options: MediaOptions) {
  await app.register(multipart, { limits: { fileSize: options.maxBytes, files: 1, fields: 0 } });

  const upload = {
    tags: ['media'],
    summary: 'Uploads a file (PDF, PNG, JPEG); documents keep a reference to it',
    body: {
      content: {
        'multipart/form-data': {
          schema: objectSchema(['file'], { file: { type: 'string', format: 'binary' } }),
        },
      },
    },
    response: {
      201: {
        description: 'The reference a form stores',
        ...objectSchema(['id', 'name', 'size', 'type'], {
          id: UUID_STRING,
          name: { type: 'string' },
          size: { type: 'integer' },
          type: { type: 'string' },
        }),
      },
      ...PROBLEM_RESPONSES,
    },
  };
  app.post('/', { schema: upload }, async (request, reply) => {
    const principal = requireSignedIn(request);
    const noFile = () => invalid([{ path: '/file', rule: 'required' }]);
    if (!request.isMultipart()) throw noFile();
    // A malformed form is a missing file; a second file is refused, not silently dropped.
    let file: MultipartFile | undefined;
    let content: Buffer | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type !== 'file') throw noFile();
        file = part;
        content = await part.toBuffer();
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE')
        throw new ApiProblem(413, ERROR_CODES.tooLarge, { limit: options.maxBytes });
      if (code === 'FST_FILES_LIMIT') throw invalid([{ path: '/file', rule: 'oneFile' }]);
      throw noFile();
    }
    if (!file || !content) throw noFile();
    const type = file.mimetype;
    const signature = SIGNATURES[type];
    if (!options.types.includes(type) || !signature?.every((byte, i) => content[i] === byte))
      throw invalid([
        { path: '/file', rule: 'fileType', params: { types: options.types.join(', ') } },
      ]);
    const name = file.filename.replace(/[^\p{L}\p{N} ._()-]/gu, '_').slice(0, 200) || 'file';
    const row = await options.db
      .insertInto('media')
      .values({
        owner: principal.subject,
        name,
        size: content.length,
        type,
        sha256: createHash('sha256').update(content).digest('hex'),
        content,
      })
      .returning(['id', 'name', 'size', 'type'])
      .executeTakeFirstOrThrow();
    return reply.status(201).send(row satisfies MediaReference);
  });

  const file = { schema: { type: 'string', format: 'binary' } };
  const read = {
    tags: ['media'],
    summary: 'A file, for its uploader and the officers who see a document naming it',
    params: stringParams('id'),
    response: {
      200: {
        description: 'The file as uploaded',
        content: { 'application/pdf': file, 'image/png': file, 'image/jpeg': file },
      },
      ...PROBLEM_RESPONSES,
    },
  };
  app.get<{ Params: { id: string } }>('/:id', { schema: read }, async (request, reply) => {
    const principal = requireSignedIn(request);
    if (!/^[0-9a-f-]{36}$/i.test(request.params.id))
      throw new ApiProblem(404, ERROR_CODES.notFound);
    const row = await options.db
      .selectFrom('media')
      .selectAll()
      .where('id', '=', request.params.id)
      .executeTakeFirst();
    if (!row || (row.owner !== principal.subject && !(await options.readable?.(principal, row.id))))
      throw new ApiProblem(404, ERROR_CODES.notFound);
    // Someone else's upload: recorded, with the document naming it (its holder's reads are not).
    if (options.audit && row.owner !== principal.subject) {
      const document = await documentNamingUpload(options.db, row.id);
      recordRead(options.audit, request, principal, document, {
        action: 'upload.read',
        target: row.id,
        detail: { name: row.name, type: row.type },
      });
    }
    // Personal papers: kept by no shared cache, nor by the browser's once the page is done.
    return reply
      .header('content-type', row.type)
      .header('content-disposition', contentDisposition(row.name))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(row.content);
  });
}
