import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/server/app';
import { spaPlugin } from '../../src/server/plugins/spa';

/** A chunk big enough to be worth compressing. */
const VENDOR = `export const texts = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `text ${i}`))};`;

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
      'silent-check-sso.html': '<!doctype html><title>sso</title>',
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

  it("does not serve the build's own folder", async () => {
    expect((await app.inject({ url: '/.vite/manifest.json' })).statusCode).toBe(404);
  });

  it('the CSP allows our service worker and still no inline script or eval', () => {
    expect(CONTENT_SECURITY_POLICY.workerSrc).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY.scriptSrc).toEqual(["'self'"]);
    expect(Object.values(CONTENT_SECURITY_POLICY).flat()).not.toContain("'unsafe-eval'");
  });
});
