import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { CatalogDefinition } from '../../src/core/definitions/types';
import { PROJECT_ROOT } from '../../src/server/config';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { copyDefinitions, readProjectJson } from '../support/definitions-dir';

type Validate = ((data: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; keyword: string }> | null;
};

describe('definitions served to the browser', () => {
  const harnesses: ApiHarness[] = [];
  afterAll(async () => Promise.all(harnesses.map((h) => h.close())));

  it('serves the bundle with an ETag and answers 304 when unchanged', async () => {
    const api = await startApiServer('pglite');
    harnesses.push(api);
    const first = await api.call('GET', '/api/definitions');
    expect(first.statusCode).toBe(200);
    expect(first.json().catalogs.map((c: CatalogDefinition) => c.id)).toContain('country');
    expect(first.json().translations.fr.app.shortName).toBeTruthy();
    const again = await api.call('GET', '/api/definitions', {
      headers: { 'if-none-match': first.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('serves a standalone validator module that validates without compiling', async () => {
    const api = harnesses[0]!;
    const response = await api.call('GET', '/api/definitions/validators/catalog/country.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/javascript/);
    // The browser's CSP forbids eval; the module must not need it, nor a CommonJS require()
    // (Ajv's helpers carry the text 'require(...)' as a string property, which is harmless).
    expect(response.body).not.toMatch(/new Function|\beval\(|(^|[^'"\w.])require\(/);
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'validator-')), 'country.mjs');
    await fs.writeFile(file, response.body);
    const validate = (await import(pathToFileURL(file).href)).default as Validate;
    expect(validate({ code: 'NZ', name: 'New Zealand', startTime: '2020-01-01T00:00:00Z' })).toBe(
      true,
    );
    expect(validate({ code: 'NZL', name: 'New Zealand', startTime: 'yesterday' })).toBe(false);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual(
      expect.arrayContaining(['/code maxLength', '/startTime format']),
    );
    expect(
      (await api.call('GET', '/api/definitions/validators/catalog/planet.js')).statusCode,
    ).toBe(404);
  });

  it('serves the bundle and the validator modules gzip-compressed, and 304 while unchanged', async () => {
    const api = harnesses[0]!;
    const url = '/api/definitions/validators/schema/visa-application.js';
    const plain = await api.call('GET', url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    // A returning visitor's browser revalidates the 0.5 MB module instead of downloading it.
    const again = await api.call('GET', url, { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    for (const path of [url, '/api/definitions']) {
      const raw = await api.call('GET', path);
      const zipped = await api.call('GET', path, {
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toMatch(/accept-encoding/i);
      expect(zipped.rawPayload.length).toBeLessThan(raw.rawPayload.length / 4);
      expect(gunzipSync(zipped.rawPayload).equals(raw.rawPayload)).toBe(true);
      const refused = await api.call('GET', path, { headers: { 'accept-encoding': 'gzip;q=0' } });
      expect(refused.headers['content-encoding']).toBeUndefined();
    }
  });

  it('serves a catalogue added as one file, after a restart, with no code and no rebuild', async () => {
    const copy = await copyDefinitions();
    const island: CatalogDefinition = {
      ...(await readProjectJson<CatalogDefinition>('catalogs/country.json')),
      id: 'island',
      category: 'configuration',
      searcherRoles: 'island-read',
      managerRoles: 'island-manage',
    };
    await copy.write('catalogs/island.json', island);
    const api = await startApiServer('pglite', { definitionsDir: copy.dir });
    harnesses.push(api);
    const token = await api.tokenFor(['island-manage']);
    const created = await api.call('POST', '/api/catalog/v1/island', {
      token,
      body: { code: 'RA', name: 'Rarotonga', startTime: '2020-01-01T00:00:00Z' },
    });
    expect(created.statusCode).toBe(201);
    const found = await api.call('PATCH', '/api/catalog/v1/island', { token, body: {} });
    expect(found.json().items[0].data.name).toBe('Rarotonga');
    expect(
      (await api.call('PATCH', '/api/catalog/v1/country', { token, body: {} })).statusCode,
    ).toBe(403);
    await copy.remove();
  });

  it('refuses to start on a malformed definition, naming file and pointer', async () => {
    const copy = await copyDefinitions();
    const broken = await readProjectJson<CatalogDefinition>('catalogs/country.json');
    (broken.schema.properties as Record<string, unknown>).code = { type: 'text' };
    await copy.write('catalogs/country.json', broken);
    const { code, stderr } = await run(['--import', 'tsx', 'src/main.ts'], {
      DEFINITIONS_DIR: copy.dir,
      DATA_DIR: path.join(copy.dir, 'data'),
      PORT: '0',
    });
    await copy.remove();
    expect(code).toBe(1);
    expect(stderr).toContain('catalogs/country.json#/schema/properties/code/type');
    expect(stderr).toContain('The portal did not start.');
  });
});

function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}
