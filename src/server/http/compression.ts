import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Bodies smaller than this go as they are: under about one TCP segment, compressing saves no
 * round trip and costs CPU on every request.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Brotli quality for bodies compressed per request. The server has two cores shared by every
 * request: quality 4 costs about what gzip's default does and sends 5-15 % fewer bytes; 5 and
 * above cost two to ten times the CPU for a few percent more. What never changes (the built
 * portal's files, the definitions and validator modules) is compressed once, harder, elsewhere.
 */
export const BROTLI_QUALITY = 4;

/**
 * Text that compresses: JSON (problem details included), text (CSV exports, HTML pages) but not
 * event streams, JavaScript, XML and SVG. Not PDFs, images or uploads (application/pdf,
 * image/png, application/octet-stream...): already compressed, or not worth the CPU.
 */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)|javascript|[+/]xml(?:;|$)/i;

/**
 * Compresses every response worth it (brotli or gzip, as the client prefers), registered before
 * the routes (the plugin hooks each route as it is added). A body already encoded is left
 * alone: the built portal's precompressed files (spa.ts) and the definitions (plugins/
 * definitions.ts) set their own `content-encoding`. Request bodies are not decompressed: the
 * API takes them as sent.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    customTypes: COMPRESSIBLE,
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    zlibOptions: { level: 6 },
    globalDecompression: false,
  });
}
