import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/databases';
import { startApiServer, type ApiHarness } from '../support/api-server';

/** A vendor chunk as the build writes it: the script, and its brotli and gzip copies. */
const VENDOR_FILE = 'assets/vendor-Ab12Cd34.js';
const VENDOR = `export const texts = ${JSON.stringify(
  Array.from({ length: 3000 }, (_, i) => `text number ${i} of the vendor chunk`),
)};\n`;

describe.each(databaseKinds())('bytes on the wire (%s)', (kind) => {
  let api: ApiHarness;
  let staticDir: string;

  beforeAll(async () => {
    staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-compression-'));
    const files: Record<string, string | Buffer> = {
      'index.html': '<!doctype html><title>portal</title>',
      [VENDOR_FILE]: VENDOR,
      [`${VENDOR_FILE}.br`]: brotliCompressSync(VENDOR),
      [`${VENDOR_FILE}.gz`]: gzipSync(VENDOR),
    };
    for (const [file, content] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(staticDir, file)), { recursive: true });
      await fs.writeFile(path.join(staticDir, file), content);
    }
    api = await startApiServer(kind, { staticDir });
  });

  afterAll(async () => {
    await api?.close();
    await fs.rm(staticDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    api.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends the vendor script as the build compressed it: brotli, else gzip, else as it is', async () => {
    const url = `/${VENDOR_FILE}`;
    const brotli = await get(url, 'gzip, deflate, br');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.rawPayload.length).toBeLessThan(VENDOR.length / 5);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(VENDOR);

    const gzip = await get(url, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(VENDOR);

    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(VENDOR);
  });

  it('compresses a JSON answer of the API, once, as the client prefers', async () => {
    // The registration options: public, several kilobytes of JSON.
    const url = '/api/connectid/registration/options';
    const plain = await get(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const brotli = await get(url, 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString())).toEqual(plain.json());

    const gzip = await get(url, 'gzip;q=1, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it('sends a small answer as it is', async () => {
    const health = await get('/api/health', 'gzip, deflate, br');
    expect(health.statusCode).toBe(200);
    expect(health.rawPayload.length).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('sends the definitions compressed once, not compressed again', async () => {
    const url = '/api/definitions/index';
    const plain = await get(url);
    const brotli = await get(url, 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).equals(plain.rawPayload)).toBe(true);
  });
});
