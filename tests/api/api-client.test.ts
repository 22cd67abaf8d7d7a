import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, DEFAULT_BACKENDS, type ApiClient } from '../../src/core/api/client';
import { startApiServer, type ApiHarness } from '../support/api-server';

describe('the generic API client against the real server', () => {
  let api: ApiHarness;
  let listener: http.Server;
  let baseUrl: string;
  let token: string | undefined;
  let locale = 'en';
  let client: ApiClient;
  const seen: Array<Record<string, string | string[] | undefined>> = [];

  beforeAll(async () => {
    api = await startApiServer('pglite', { referenceData: false });
    // What reaches the server, seen before the portal handles it.
    listener = http.createServer((request, response) => {
      seen.push(request.headers);
      api.server.handle(request, response);
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/api`;
    client = createApiClient({
      baseUrl,
      backends: DEFAULT_BACKENDS,
      locale: () => locale,
      token: () => token,
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => listener?.close(resolve));
    await api?.close();
  });

  it('sends locale, Accept-Language and the bearer token, and returns [null, data]', async () => {
    token = await api.tokenFor(['catalog-manage']);
    locale = 'fr';
    const [error, created] = await client.post<{ id: string }>('catalog', '/country', {
      code: 'PF',
      name: 'Polynésie française',
      startTime: '2020-01-01T00:00:00Z',
    });
    expect(error).toBeNull();
    expect(created?.id).toMatch(/[0-9a-f-]{36}/);
    const headers = seen.at(-1)!;
    expect(headers.locale).toBe('fr');
    expect(headers['accept-language']).toBe('fr');
    expect(headers.authorization).toBe(`Bearer ${token}`);
  });

  it('searches with a PATCH carrying filter and options', async () => {
    const [error, result] = await client.search<{ data: { code: string } }>('catalog', '/country', {
      filter: [{ field: 'code', criterion: 'equals', value: 'PF' }],
      options: { page: 1, itemsPerPage: 10 },
    });
    expect(error).toBeNull();
    expect(result?.items.map((e) => e.data.code)).toEqual(['PF']);
    expect(result?.itemsPerPage).toBe(10);
  });

  it('returns [error, null] with the translated server error instead of throwing', async () => {
    locale = 'fr';
    const [error, data] = await client.post('catalog', '/country', { code: 'PFX' });
    expect(data).toBeNull();
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(error?.fields?.find((f) => f.path === '/code')?.message).toBe(
      'Doit comporter au plus 2 caractères',
    );
    token = undefined;
    const [unauthorised] = await client.get(
      'catalog',
      '/country/00000000-0000-0000-0000-000000000000',
    );
    expect(unauthorised).toMatchObject({ status: 401, code: 'NOT_SIGNED_IN' });
  });

  it('returns a network error when the server cannot be reached', async () => {
    const offline = createApiClient({
      baseUrl: 'http://127.0.0.1:9/api',
      backends: DEFAULT_BACKENDS,
      locale: () => 'en',
    });
    const [error, data] = await offline.get('system', '/health');
    expect(data).toBeNull();
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_UNAVAILABLE' });
  });

  it('returns an error for an unknown backend without calling anything', async () => {
    const [error] = await client.get('nowhere', '/x');
    expect(error?.code).toBe('UNKNOWN_BACKEND');
  });
});
