import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * Serves the built single-page portal. Hashed files under assets/ never change, so browsers
 * keep them a year; index.html and the rest are revalidated on every load: among them the
 * service worker (/sw.js) and the Workbox runtime it imports (/workbox-*.js), so a new version
 * is seen at once. The build's own folder (.vite/, Vite's manifest) is not served.
 */
export async function spaPlugin(app: FastifyInstance, options: { staticDir: string }) {
  if (!fs.existsSync(path.join(options.staticDir, 'index.html'))) {
    app.log.warn({ staticDir: options.staticDir }, 'portal not built: run `npm run build`');
    return;
  }
  await app.register(fastifyStatic, {
    root: options.staticDir,
    wildcard: true,
    index: ['index.html'],
    cacheControl: false,
    dotfiles: 'ignore',
    // The build writes a brotli and a gzip copy beside each text file (vite.config.ts): sent to
    // browsers that take them, a third to a quarter of the bytes, never compressed per request.
    preCompressed: true,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader(
        'cache-control',
        immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      // The body depends on Accept-Encoding (a compressed copy or the file itself): a shared
      // cache must not hand a brotli body to a client that did not ask for it.
      res.setHeader('vary', 'accept-encoding');
    },
  });
}
