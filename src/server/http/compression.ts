import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Under about one TCP segment, compressing saves no round trip and costs CPU. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Quality 4 costs about gzip's default and sends 5-15 % fewer bytes; more costs far more CPU. */
const BROTLI_QUALITY = 4;

/** JSON, text (not event streams), JavaScript, XML and SVG; not PDFs, images or uploads. */
const COMPRESSIBLE = /^text\/(?!event-stream)|[+/]json(?:;|$)|javascript|[+/]xml(?:;|$)/i;

/**
 * Compresses every response worth it (brotli or gzip), registered before the routes. A body
 * already encoded (spa.ts, plugins/definitions.ts) is left alone; requests are not decompressed.
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
