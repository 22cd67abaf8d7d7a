import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { forgedToken } from '../support/tokens';

const READ = ['catalog-read'];
const MANAGE = ['catalog-manage'];

describe.each(databaseKinds())('Country catalogue through the API on %s', (kind) => {
  let api: ApiHarness;
  let reader: string;
  let manager: string;

  beforeAll(async () => {
    // An empty catalogue to start from: the seeded ISO countries would hold these codes.
    api = await startApiServer(kind, { referenceData: false });
    reader = await api.tokenFor(READ);
    manager = await api.tokenFor(MANAGE);
  });
  afterAll(async () => api?.close());

  const create = (body: unknown, token = manager, headers: Record<string, string> = {}) =>
    api.call('POST', '/api/catalog/v1/country', { token, body, headers });
  const search = (body: unknown, token = reader) =>
    api.call('PATCH', '/api/catalog/v1/country', { token, body });
  const count = async () =>
    (await search({ options: { itemsPerPage: -1 } })).json().total as number;

  it('reports the database and the definitions digest in /api/health', async () => {
    const response = await api.call('GET', '/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      database: { kind, status: 'up' },
      definitions: { digest: api.server.definitions.version },
    });
  });

  it('creates a country for a manager and finds it for a reader', async () => {
    const created = await create({
      code: 'NZ',
      name: 'New Zealand',
      startTime: '2020-01-01T00:00:00Z',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      version: 1,
      createdBy: 'tester',
      data: {
        code: 'NZ',
        name: 'New Zealand',
        startTime: '2020-01-01T00:00:00.000Z',
        endTime: null,
      },
    });
    const found = await search({ filter: [{ field: 'code', criterion: 'equals', value: 'NZ' }] });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ total: 1, page: 1, itemsPerPage: -1, capped: false });
    expect(found.json().items[0].data.name).toBe('New Zealand');
    const read = await api.call('GET', `/api/catalog/v1/country/${created.json().id}`, {
      token: reader,
    });
    expect(read.json().data.code).toBe('NZ');
  });

  it('refuses a three-letter code with a per-field error in English and French, storing nothing', async () => {
    const before = await count();
    const english = await create({
      code: 'NZL',
      name: 'New Zealand',
      startTime: '2020-01-01T00:00:00Z',
    });
    expect(english.statusCode).toBe(400);
    expect(english.json().error.code).toBe('VALIDATION_FAILED');
    expect(english.json().error.fields).toContainEqual({
      path: '/code',
      rule: 'maxLength',
      message: 'Must be at most 2 characters',
    });
    const french = await create(
      { code: 'NZL', name: 'Nouvelle-Zélande', startTime: '2020-01-01T00:00:00Z' },
      manager,
      { locale: 'fr' },
    );
    expect(french.json().error.message).toBe(
      'Certains champs ne sont pas valides, veuillez les corriger',
    );
    expect(french.json().error.fields).toContainEqual({
      path: '/code',
      rule: 'maxLength',
      message: 'Doit comporter au plus 2 caractères',
    });
    expect(await count()).toBe(before);
  });

  it('names every missing or unexpected field', async () => {
    const response = await create({ code: 'FR', colour: 'blue' });
    expect(response.statusCode).toBe(400);
    const paths = response.json().error.fields.map((f: { path: string }) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['/name', '/startTime', '/colour']));
  });

  it('answers 400 INVALID_JSON for a body that is not JSON, in the request language', async () => {
    const response = await api.call('POST', '/api/catalog/v1/country', {
      token: manager,
      rawBody: '{"code": "FR",',
      headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'INVALID_JSON',
      message: "La requête n'a pas pu être lue : ce n'est pas du JSON valide",
    });
  });

  it('refuses an overlapping validity period for the same key and accepts the next period', async () => {
    const first = await create({
      code: 'FJ',
      name: 'Fiji',
      startTime: '2020-01-01T00:00:00Z',
      endTime: '2030-01-01T00:00:00Z',
    });
    expect(first.statusCode).toBe(201);
    const overlapping = await create({
      code: 'FJ',
      name: 'Fiji (new)',
      startTime: '2025-01-01T00:00:00Z',
    });
    expect(overlapping.statusCode).toBe(409);
    expect(overlapping.json().error.code).toBe('OVERLAPPING_PERIOD');
    const next = await create({
      code: 'FJ',
      name: 'Fiji (new)',
      startTime: '2030-01-01T00:00:00Z',
    });
    expect(next.statusCode).toBe(201);
    const backwards = await create({
      code: 'TO',
      name: 'Tonga',
      startTime: '2030-01-01T00:00:00Z',
      endTime: '2020-01-01T00:00:00Z',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.fields[0]).toMatchObject({
      path: '/endTime',
      rule: 'endAfterStart',
    });
  });

  describe('who may call', () => {
    it('answers 401 without a token', async () => {
      expect((await search({}, '')).statusCode).toBe(401);
      expect(
        (await create({ code: 'WS', name: 'Samoa', startTime: '2020-01-01T00:00:00Z' }, '')).json()
          .error.code,
      ).toBe('NOT_SIGNED_IN');
    });
    it('answers 403 to a reader who tries to create', async () => {
      const response = await create(
        { code: 'WS', name: 'Samoa', startTime: '2020-01-01T00:00:00Z' },
        reader,
      );
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('FORBIDDEN');
    });
    it('answers 403 to a signed-in user without any catalogue role', async () => {
      expect((await search({}, await api.tokenFor(['view-profile']))).statusCode).toBe(403);
    });
    it('lets a manager search too', async () => {
      expect((await search({}, manager)).statusCode).toBe(200);
    });
    it('answers 401 to an expired, forged, wrong-issuer or wrong-audience token', async () => {
      const claims = { sub: 'x', groups: MANAGE };
      const tokens = [
        await api.issuer.token(claims, { expiresIn: '-1m' }),
        await forgedToken(api.issuer.issuer, claims),
        await api.issuer.token(claims, { issuer: 'http://localhost:8080/realms/other' }),
        await api.issuer.token(claims, { audience: 'someone-else' }),
        'not-a-token',
      ];
      for (const token of tokens) {
        const response = await search({}, token);
        expect(response.statusCode).toBe(401);
        expect(response.json().error.code).toBe('INVALID_TOKEN');
      }
    });
  });

  it('keeps entries across a restart of the server', async () => {
    await create({ code: 'CK', name: 'Cook Islands', startTime: '2020-01-01T00:00:00Z' });
    await api.restart();
    const found = await search({ filter: [{ field: 'code', criterion: 'equals', value: 'CK' }] });
    expect(found.json().items.map((e: { data: { name: string } }) => e.data.name)).toEqual([
      'Cook Islands',
    ]);
  });

  it('returns 404 for an unknown catalogue', async () => {
    expect(
      (await api.call('PATCH', '/api/catalog/v1/planets', { token: manager, body: {} })).statusCode,
    ).toBe(404);
  });
});

describe.each(databaseKinds())('Seeded countries on %s', (kind) => {
  let api: ApiHarness;
  let reader: string;
  let manager: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    reader = await api.tokenFor(READ);
    manager = await api.tokenFor(MANAGE);
  });
  afterAll(async () => api?.close());

  const byCode = async (code: string) => {
    const found = await api.call('PATCH', '/api/catalog/v1/country', {
      token: reader,
      body: { filter: [{ field: 'code', criterion: 'equals', value: code }] },
    });
    expect(found.statusCode).toBe(200);
    return found.json().items[0] as { id: string; version: number; data: Record<string, unknown> };
  };

  it('carries the ISO alpha-3 and numeric codes of every seeded country, in searches and reads', async () => {
    const samoa = await byCode('WS');
    expect(samoa.data).toMatchObject({
      code: 'WS',
      name: 'Samoa',
      alpha3Code: 'WSM',
      numericCode: 882,
    });
    // ISO writes it 004: the number is kept, the zeros are how it is written.
    expect((await byCode('AF')).data).toMatchObject({ alpha3Code: 'AFG', numericCode: 4 });
    const read = await api.call('GET', `/api/catalog/v1/country/${samoa.id}`, { token: reader });
    expect(read.json().data).toMatchObject({ alpha3Code: 'WSM', numericCode: 882 });

    const all = await api.call('PATCH', '/api/catalog/v1/country', {
      token: reader,
      body: { options: { itemsPerPage: -1 } },
    });
    const items = all.json().items as Array<{ data: Record<string, unknown> }>;
    expect(items.length).toBeGreaterThan(240);
    const lacking = items.filter(
      ({ data }) =>
        !/^[A-Z]{3}$/.test(String(data.alpha3Code)) ||
        !Number.isInteger(data.numericCode) ||
        Number(data.numericCode) < 1 ||
        Number(data.numericCode) > 999,
    );
    expect(lacking.map(({ data }) => data.code)).toEqual([]);
  });

  it('keeps both codes through an edit that sends them back, as the Edit Entry dialog does', async () => {
    const samoa = await byCode('WS');
    const { startTime, alpha3Code, numericCode } = samoa.data;
    const edited = await api.call('PUT', `/api/catalog/v1/country/${samoa.id}`, {
      token: manager,
      body: {
        version: samoa.version,
        data: {
          code: 'WS',
          name: 'Independent State of Samoa',
          startTime,
          alpha3Code,
          numericCode,
        },
      },
    });
    expect(edited.statusCode).toBe(200);
    expect((await byCode('WS')).data).toMatchObject({
      name: 'Independent State of Samoa',
      alpha3Code: 'WSM',
      numericCode: 882,
    });
  });

  it('keeps the codes whatever an edit sends, of any shape: only the system writes them', async () => {
    const tonga = await byCode('TO');
    for (const [alpha3Code, numericCode] of [
      ['XXX', 1],
      ['xx', 1000],
    ] as const) {
      const current = await byCode('TO');
      const edited = await api.call('PUT', `/api/catalog/v1/country/${tonga.id}`, {
        token: manager,
        body: {
          version: current.version,
          data: {
            code: 'TO',
            name: 'Tonga',
            startTime: tonga.data.startTime,
            alpha3Code,
            numericCode,
          },
        },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect((await byCode('TO')).data).toMatchObject({ alpha3Code: 'TON', numericCode: 776 });
    }
  });

  it('gives countries seeded before the codes existed their codes at the next start', async () => {
    const db = api.server.database.db;
    await db
      .updateTable('catalog_entry')
      .set({ data: sql<string>`data - 'alpha3Code' - 'numericCode'` })
      .where('catalog', '=', 'country')
      .where('created_by', '=', 'seed')
      .execute();
    expect((await byCode('FJ')).data.alpha3Code).toBeUndefined();
    await api.restart();
    expect((await byCode('FJ')).data).toMatchObject({ alpha3Code: 'FJI', numericCode: 242 });
  });

  it('takes no code a creation sends, well formed or not: only the system writes them', async () => {
    for (const [code, alpha3Code, numericCode] of [
      ['QZ', 'QZI', 999],
      ['QY', 'qyi', 1000],
    ] as const) {
      const response = await api.call('POST', '/api/catalog/v1/country', {
        token: manager,
        body: {
          code,
          name: 'Quokka Islands',
          alpha3Code,
          numericCode,
          startTime: '2020-01-01T00:00:00Z',
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data).not.toHaveProperty('alpha3Code');
      expect(response.json().data).not.toHaveProperty('numericCode');
      const stored = (await byCode(code)).data;
      expect(stored).not.toHaveProperty('alpha3Code');
      expect(stored).not.toHaveProperty('numericCode');
    }
  });
});
