import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';

describe('HTTP hardening', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiServer('pglite', { bodyLimit: 2048, referenceData: false });
  });
  afterAll(async () => api?.close());

  it('sends a strict Content-Security-Policy without unsafe-eval or inline scripts', async () => {
    const response = await api.call('GET', '/api/health');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp.split(';').find((d) => d.startsWith('script-src'))).not.toContain('unsafe-inline');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a body over the limit with 413 and writes nothing', async () => {
    const token = await api.tokenFor(['catalog-manage']);
    const response = await api.call('POST', '/api/catalog/v1/country', {
      token,
      body: { code: 'NZ', name: 'x'.repeat(4096), startTime: '2020-01-01T00:00:00Z' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    const found = await api.call('PATCH', '/api/catalog/v1/country', { token, body: {} });
    expect(found.json().total).toBe(0);
  });

  it('answers an unknown API address with a JSON 404 in the request language', async () => {
    const response = await api.call('GET', '/api/nothing-here', { headers: { locale: 'fr' } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatchObject({ code: 'NOT_FOUND', message: 'Introuvable' });
  });
});
