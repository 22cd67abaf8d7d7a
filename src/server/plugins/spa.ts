import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * Serves the built portal: hashed files under assets/ kept a year, the rest (the service worker
 * among them) revalidated on every load. The build's own folder (.vite/) is not served.
 */
export async function spaPlugin(app: FastifyInstance, options: { staticDir: string }) {
  if (!fs.existsSync(path.join(options.staticDir, 'index.html'))) {
    app.log.warn({ staticDir: options.staticDir }, 'portal not built: run `npm run build`');
    return;
  }
  const inlineScripts = inlineScriptHashes(options.staticDir);
  await app.register(fastifyStatic, {
    root: options.staticDir,
    wildcard: true,
    index: ['index.html'],
    cacheControl: false,
    dotfiles: 'ignore',
    // The build writes a brotli and a gzip copy beside each text file (vite.config.ts).
    preCompressed: true,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader(
        'cache-control',
        immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      res.setHeader('vary', 'accept-encoding');
      const hashes = inlineScripts.get(filePath.replace(/\.(br|gz)$/, ''));
      const policy = res.getHeader('content-security-policy');
      if (hashes && typeof policy === 'string')
        res.setHeader('content-security-policy', allowingScripts(policy, hashes));
    },
  });
}

/**
 * The hashes (`'sha256-...'`) of the inline scripts of each top-level HTML file of the build, by
 * path (the silent sign-on page's one line): only that file's answer allows them.
 */
function inlineScriptHashes(staticDir: string): Map<string, string[]> {
  const hashes = new Map<string, string[]>();
  for (const name of fs.readdirSync(staticDir)) {
    if (!name.endsWith('.html')) continue;
    const file = path.join(staticDir, name);
    const html = fs.readFileSync(file, 'utf8');
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, body = '']) => {
      const digest = createHash('sha256').update(body, 'utf8').digest('base64');
      return `'sha256-${digest}'`;
    });
    if (scripts.length > 0) hashes.set(file, scripts);
  }
  return hashes;
}

/** The policy with `hashes` added to its script-src directive. */
function allowingScripts(policy: string, hashes: readonly string[]): string {
  return policy.replace(
    /(^|;)\s*script-src([^;]*)/,
    (_match, start: string, sources: string) => `${start}script-src${sources} ${hashes.join(' ')}`,
  );
}
