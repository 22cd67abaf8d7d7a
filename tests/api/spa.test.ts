import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/server/app';
import { installSecurityHeaders } from '../../src/server/http/security-headers';
import { spaPlugin } from '../../src/server/plugins/spa';

/** A chunk big enough to be worth compressing. */
const VENDOR = `export const texts = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `text ${i}`))};`;

/** The silent sign-on page's one line of script, written into the page. */
const SILENT_SCRIPT = 'parent.postMessage(location.href, location.origin);';

/** The script-src directive of an answer's Content-Security-Policy. */
function scriptSources(policy: unknown): string[] {
  const directive = String(policy)
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('script-src '));
  return directive?.split(/\s+/).slice(1) ?? [];
}

/** The built portal's files as the service worker needs them served. */
describe('the built portal', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-spa-'));
    const files: Record<string, string | Buffer> = {
      'index.html': '<!doctype html><title>portal</title>',
      'sw.js': 'importScripts("./workbox-1a2b3c4d.js");',
      'workbox-1a2b3c4d.js': '/* workbox */',
      'silent-check-sso.html': `<!doctype html><title>sso</title><script>${SILENT_SCRIPT}</script>`,
      'assets/index-AbCd1234.js': 'export {};',
      '.vite/manifest.json': '{}',
      'assets/vendor-Ef567890.js': VENDOR,
      'assets/vendor-Ef567890.js.br': brotliCompressSync(VENDOR),
      'assets/vendor-Ef567890.js.gz': gzipSync(VENDOR),
    };
    for (const [file, content] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await fs.writeFile(path.join(dir, file), content);
    }
    app = Fastify({ logger: false });
    await installSecurityHeaders(app, {
      contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    });
    await app.register(spaPlugin, { staticDir: dir });
  });

  afterAll(async () => {
    await app.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('revalidates the service worker, its Workbox runtime and the pages on every load', async () => {
    for (const url of ['/sw.js', '/workbox-1a2b3c4d.js', '/', '/silent-check-sso.html']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await app.inject({ url: '/sw.js' })).headers['content-type']).toMatch(
      /^(application|text)\/javascript/,
    );
  });

  it('keeps hashed assets a year', async () => {
    const response = await app.inject({ url: '/assets/index-AbCd1234.js' });
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the compressed copy the build wrote to a browser that takes it', async () => {
    const url = '/assets/vendor-Ef567890.js';
    const brotli = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.rawPayload.equals(brotliCompressSync(VENDOR))).toBe(true);
    const gzip = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(VENDOR);
  });

  it('allows an HTML file its own inline scripts by their hash, and no other page', async () => {
    const hash = createHash('sha256').update(SILENT_SCRIPT).digest('base64');
    const silent = await app.inject({ url: '/silent-check-sso.html?code=abc&state=def' });
    expect(silent.body).toContain(SILENT_SCRIPT);
    expect(scriptSources(silent.headers['content-security-policy'])).toEqual([
      "'self'",
      `'sha256-${hash}'`,
    ]);
    const index = await app.inject({ url: '/' });
    expect(scriptSources(index.headers['content-security-policy'])).toEqual(["'self'"]);
  });

  it("does not serve the build's own folder", async () => {
    expect((await app.inject({ url: '/.vite/manifest.json' })).statusCode).toBe(404);
  });

  it('the CSP allows our service worker and still no inline script or eval', () => {
    expect(CONTENT_SECURITY_POLICY.workerSrc).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY.scriptSrc).toEqual(["'self'"]);
    expect(Object.values(CONTENT_SECURITY_POLICY).flat()).not.toContain("'unsafe-eval'");
  });
});
