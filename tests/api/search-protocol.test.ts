import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

const COUNTRIES: Array<[string, string, string, string | null]> = [
  ['AU', 'Australia', '2019-01-01T00:00:00Z', null],
  ['FJ', 'Fiji', '2020-06-01T00:00:00Z', '2040-01-01T00:00:00Z'],
  ['FR', 'France', '2021-01-01T00:00:00Z', null],
  ['NZ', 'New Zealand', '2022-01-01T00:00:00Z', null],
  ['NC', 'New Caledonia', '2023-01-01T00:00:00Z', null],
  ['WS', 'Samoa_100%', '2024-01-01T00:00:00Z', null],
];

describe.each(databaseKinds())('search protocol on %s', (kind) => {
  let api: ApiHarness;
  let token: string;
  const search = (body: unknown) => api.call('PATCH', '/api/catalog/v1/country', { token, body });
  const codes = async (body: unknown) => {
    const response = await search(body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().items.map((e: { data: { code: string } }) => e.data.code) as string[];
  };
  const where = (field: string, criterion: string, value?: unknown, valueTo?: unknown) =>
    codes({ filter: [{ field, criterion, value, valueTo }] });

  beforeAll(async () => {
    // Only the test's countries: the search results are counted exactly.
    api = await startApiServer(kind, { referenceData: false });
    token = await api.tokenFor(['catalog-manage']);
    for (const [code, name, startTime, endTime] of COUNTRIES) {
      const response = await api.call('POST', '/api/catalog/v1/country', {
        token,
        body: { code, name, startTime, ...(endTime ? { endTime } : {}) },
      });
      expect(response.statusCode).toBe(201);
    }
  });
  afterAll(async () => api?.close());

  it.each([
    ['equals', 'code', 'NZ', undefined, ['NZ']],
    ['notEquals', 'code', 'NZ', undefined, ['AU', 'FJ', 'FR', 'NC', 'WS']],
    ['startsWith', 'name', 'new', undefined, ['NC', 'NZ']],
    ['endsWith', 'name', 'CE', undefined, ['FR']],
    ['contains', 'name', 'ali', undefined, ['AU']],
    ['contains', 'name', '_100%', undefined, ['WS']],
    ['contains', 'name', '%', undefined, ['WS']],
    ['between', 'code', 'FA', 'ND', ['FJ', 'FR', 'NC']],
    ['greaterThan', 'code', 'NC', undefined, ['NZ', 'WS']],
    ['greaterThanOrEqual', 'code', 'NC', undefined, ['NC', 'NZ', 'WS']],
    ['lessThan', 'code', 'FJ', undefined, ['AU']],
    ['lessThanOrEqual', 'code', 'FJ', undefined, ['AU', 'FJ']],
    ['empty', 'endTime', undefined, undefined, ['AU', 'FR', 'NC', 'NZ', 'WS']],
    ['notEmpty', 'endTime', undefined, undefined, ['FJ']],
    ['none', 'code', undefined, undefined, ['AU', 'FJ', 'FR', 'NC', 'NZ', 'WS']],
    ['greaterThanOrEqual', 'startTime', '2022-01-01T00:00:00Z', undefined, ['NC', 'NZ', 'WS']],
    ['between', 'startTime', '2020-01-01T00:00:00Z', '2021-06-01T00:00:00Z', ['FJ', 'FR']],
  ])('%s on %s', async (criterion, field, value, valueTo, expected) => {
    const body = { filter: [{ field, criterion, value, valueTo }], options: { itemsPerPage: 50 } };
    expect((await codes(body)).sort()).toEqual(expected);
  });

  it('combines conditions with and', async () => {
    const body = {
      filter: [
        { field: 'name', criterion: 'startsWith', value: 'New' },
        { field: 'code', criterion: 'notEquals', value: 'NZ' },
      ],
    };
    expect(await codes(body)).toEqual(['NC']);
  });

  it('sorts on allowed fields and refuses others', async () => {
    const body = { options: { itemsPerPage: 3, sort: [{ field: 'name', direction: 'desc' }] } };
    expect(await codes(body)).toEqual(['WS', 'NZ', 'NC']);
    const refused = await search({ options: { sort: [{ field: 'password', direction: 'asc' }] } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields[0]).toMatchObject({
      path: '/options/sort/0/field',
      rule: 'unknownField',
    });
  });

  it('pages: 1 and 2 of 2 per page, and 1 or lower becomes 10', async () => {
    const body = (page: number, itemsPerPage: number) => ({ options: { page, itemsPerPage } });
    expect(await codes(body(1, 2))).toEqual(['AU', 'FJ']);
    expect(await codes(body(2, 2))).toEqual(['FR', 'NC']);
    const ten = await search(body(1, 1));
    expect(ten.json()).toMatchObject({ itemsPerPage: 10, total: 6 });
  });

  it('refuses an unknown criterion with a stable code and per-field message, in French too', async () => {
    const response = await api.call('PATCH', '/api/catalog/v1/country', {
      token,
      body: { filter: [{ field: 'code', criterion: 'soundsLike', value: 'NZ' }] },
      headers: { locale: 'fr' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'UNKNOWN_CRITERION',
      message: "La recherche utilise un critère de filtre qui n'existe pas",
      fields: [
        {
          path: '/filter/0/criterion',
          rule: 'unknownCriterion',
          message: "Aucun critère de filtre ne s'appelle soundsLike",
        },
      ],
    });
  });

  it('refuses an unknown field, a field name carrying SQL, and a bad value', async () => {
    const unknown = await search({
      filter: [{ field: "code'; drop table catalog_entry; --", criterion: 'equals', value: 'x' }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('UNKNOWN_FIELD');
    const badDate = await search({
      filter: [{ field: 'startTime', criterion: 'greaterThan', value: 'yesterday' }],
    });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().error.fields[0]).toMatchObject({
      path: '/filter/0/value',
      rule: 'filterValue',
    });
    const missing = await search({ filter: [{ field: 'code', criterion: 'between', value: 'A' }] });
    expect(missing.json().error.fields[0].path).toBe('/filter/0/valueTo');
    const notList = await search({ filter: { code: 'NZ' } });
    expect(notList.statusCode).toBe(400);
    expect(await codes({ options: { itemsPerPage: 50 } })).toHaveLength(6);
  });

  it('treats a value with SQL in it as plain text', async () => {
    expect(await where('name', 'equals', "x' or '1'='1")).toEqual([]);
  });
});

describe.each(databaseKinds())('search cap on %s', (kind) => {
  let api: ApiHarness;
  afterAll(async () => api?.close());

  it('caps "all" (-1) and any page size at the configured maximum, and says so', async () => {
    api = await startApiServer(kind, { searchMaxItems: 2, referenceData: false });
    const token = await api.tokenFor(['catalog-manage']);
    for (const code of ['AU', 'FJ', 'NZ']) {
      await api.call('POST', '/api/catalog/v1/country', {
        token,
        body: { code, name: code, startTime: '2020-01-01T00:00:00Z' },
      });
    }
    const search = (body: unknown) => api.call('PATCH', '/api/catalog/v1/country', { token, body });
    const all = await search({ options: { itemsPerPage: -1 } });
    expect(all.json()).toMatchObject({ itemsPerPage: -1, total: 3, capped: true });
    expect(all.json().items).toHaveLength(2);
    expect((await search({})).json()).toMatchObject({ page: 1, itemsPerPage: -1, capped: true });
    const large = await search({ options: { itemsPerPage: 100 } });
    expect(large.json()).toMatchObject({ itemsPerPage: 2, capped: false });
    expect(large.json().items).toHaveLength(2);
  });
});
