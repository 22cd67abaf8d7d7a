import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode } from '../support/run-node';
import type { CatalogDefinition, DefinitionBundle } from '../../src/core/definitions/types';
import {
  withDocumentParts,
  type DocumentPart,
  type PortalIndex,
} from '../../src/core/definitions/parts';
import type { TextTree } from '../../src/core/i18n/translate';
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

  it('serves the validator modules compressed, and 304 while unchanged', async () => {
    const api = harnesses[0]!;
    const url = '/api/definitions/validators/schema/visa-application.js';
    const plain = await api.call('GET', url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    // A returning visitor's browser revalidates the module instead of downloading it.
    const again = await api.call('GET', url, { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    for (const path of [url, '/api/definitions', '/api/definitions/index']) {
      const raw = await api.call('GET', path);
      const brotli = await api.call('GET', path, {
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.headers.vary).toMatch(/accept-encoding/i);
      expect(brotli.rawPayload.length).toBeLessThan(raw.rawPayload.length / 4);
      expect(brotliDecompressSync(brotli.rawPayload).equals(raw.rawPayload)).toBe(true);
      const zipped = await api.call('GET', path, { headers: { 'accept-encoding': 'gzip' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(zipped.rawPayload).equals(raw.rawPayload)).toBe(true);
      const refused = await api.call('GET', path, {
        headers: { 'accept-encoding': 'gzip;q=0, br;q=0' },
      });
      expect(refused.headers['content-encoding']).toBeUndefined();
    }
  });

  it("serves an index without the entities, and each document type's part on its own", async () => {
    const api = harnesses[0]!;
    const whole = (await api.call('GET', '/api/definitions')).json() as DefinitionBundle;
    const answer = await api.call('GET', '/api/definitions/index');
    expect(answer.statusCode).toBe(200);
    const index = answer.json() as PortalIndex;
    expect(index.version).toBe(whole.version);
    expect(index.workflows.map((w) => w.id)).toEqual(whole.workflows.map((w) => w.id));
    expect(index.catalogs.map((c) => c.id)).toContain('country');
    expect(index).not.toHaveProperty('schemas');
    expect(index.documents['visa-application']?.map((s) => s.id)).toContain('applicant');
    // The visa's form texts come with its part; its title, menu labels and flags are in the index.
    const visaEn = index.translations.en['visa-application'] as TextTree;
    expect(Object.keys(visaEn).sort()).toEqual(['_title', 'flags', 'lists', 'menu', 'screens']);
    expect(index.translations.fr.app).toEqual(whole.translations.fr.app);
    const part = await api.call('GET', '/api/definitions/documents/visa-application');
    expect(part.statusCode).toBe(200);
    const visa = part.json() as DocumentPart;
    expect(visa.schema).toEqual(whole.schemas.find((s) => s.id === 'visa-application'));
    expect(visa.translations.fr).toEqual(whole.translations.fr['visa-application']);
    const revalidated = await api.call('GET', '/api/definitions/documents/visa-application', {
      headers: { 'if-none-match': part.headers.etag as string },
    });
    expect(revalidated.statusCode).toBe(304);

    // Put back together, the index and every part are the whole bundle's schemas and texts.
    const parts = await Promise.all(
      Object.keys(index.documents).map(
        async (id) =>
          (await api.call('GET', `/api/definitions/documents/${id}`)).json() as DocumentPart,
      ),
    );
    const merged = withDocumentParts(index, parts);
    expect(merged.schemas).toEqual(whole.schemas);
    // All but the definitions checker's texts, which only the server words (for the studio).
    const pageTexts = (language: 'en' | 'fr') => {
      const { checker, ...rest } = whole.translations[language];
      expect(checker).toHaveProperty('unknownGuard');
      return rest;
    };
    expect(merged.translations).toEqual({ en: pageTexts('en'), fr: pageTexts('fr') });
    expect(index.translations.en).not.toHaveProperty('checker');

    const unknown = await api.call('GET', '/api/definitions/documents/planet', {
      headers: { 'accept-language': 'fr' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');
  });

  it("serves each section's validators apart from the whole document's", async () => {
    const api = harnesses[0]!;
    const whole = await api.call('GET', '/api/definitions/validators/schema/visa-application.js');
    const section = await api.call(
      'GET',
      '/api/definitions/validators/schema/visa-application/applicant.js',
    );
    expect(section.statusCode).toBe(200);
    expect(section.headers['content-type']).toMatch(/text\/javascript/);
    expect(section.body).not.toMatch(/new Function|\beval\(/);
    // What the form needs to paint its open section is a small part of the document's checks.
    expect(section.rawPayload.length).toBeLessThan(whole.rawPayload.length / 4);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'validator-'));
    await fs.writeFile(path.join(dir, 'applicant.mjs'), section.body);
    const module = (await import(pathToFileURL(path.join(dir, 'applicant.mjs')).href)) as {
      validate: Validate;
      schema: { properties: Record<string, unknown> };
      rjsf: Record<string, Validate>;
    };
    expect(Object.keys(module.schema.properties)).toEqual(['applicant']);
    expect(Object.keys(module.rjsf).length).toBeGreaterThan(0);
    expect(module.validate({ applicant: { familyName: 7 } })).toBe(false);
    expect(module.validate.errors?.map((e) => `${e.instancePath} ${e.keyword}`)).toContain(
      '/applicant/familyName type',
    );
    expect(
      (await api.call('GET', '/api/definitions/validators/schema/visa-application/nowhere.js'))
        .statusCode,
    ).toBe(404);
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
    const { code, stderr } = await runNode(['--import', 'tsx', 'src/main.ts'], {
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
