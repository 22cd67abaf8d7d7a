import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translatableFieldsOf } from '../../src/core/definitions/catalog-entry';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

type Entry = { id: string; version: number; data: Record<string, unknown> };

/**
 * Reference data in the reader's language through the API (docs/catalogues.md, "Texts in every
 * language"): the seed's French, the options of a form's select and the finder in the language
 * asked, each language's text checked with the field's own limits, and the seed's translations
 * brought to entries seeded before them, never to an administrator's.
 */
describe.each(databaseKinds())('catalogue texts in every language on %s', (kind) => {
  let api: ApiHarness;
  let reader: string;
  let manager: string;
  let applicant: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    reader = await api.tokenFor(['catalog-read']);
    manager = await api.tokenFor(['asypx-catalog-manage']);
    applicant = await api.tokenFor(['visa-application-submit']);
  });
  afterAll(async () => api?.close());

  const inLanguage = (language: string) => ({ locale: language });
  const options = async (catalog: string, query: string, language: string) => {
    const response = await api.call('GET', `/api/catalog/v1/${catalog}/options?${query}`, {
      token: applicant,
      headers: inLanguage(language),
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { items: Array<{ code: string; name: string }> }).items;
  };
  const search = async (catalog: string, body: unknown, language: string, token = reader) => {
    const response = await api.call('PATCH', `/api/catalog/v1/${catalog}`, {
      token,
      body,
      headers: inLanguage(language),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { total: number; items: Entry[] };
  };

  it('seeds French for every translatable text it ships, and the countries’ French names', async () => {
    const rows = await api.server.database.db
      .selectFrom('catalog_entry')
      .select(['catalog', 'data'])
      .where('created_by', '=', 'seed')
      .execute();
    const untranslated: string[] = [];
    for (const catalog of api.server.definitions.catalogs) {
      for (const field of translatableFieldsOf(catalog)) {
        for (const { data } of rows.filter((row) => row.catalog === catalog.id)) {
          const french = (data.i18n as { fr?: Record<string, string> } | undefined)?.fr?.[field];
          if (typeof data[field] === 'string' && !french)
            untranslated.push(`${catalog.id} ${String(data.code)} ${field}`);
        }
      }
    }
    expect(untranslated).toEqual([]);
    const [nz] = (
      await search(
        'country',
        { filter: [{ field: 'code', criterion: 'equals', value: 'NZ' }] },
        'en',
      )
    ).items;
    expect(nz?.data).toMatchObject({
      name: 'New Zealand',
      i18n: { fr: { name: 'Nouvelle-Zélande' } },
    });
  });

  it('offers a form’s select in the reader’s language, found by what either language calls it', async () => {
    expect(await options('document', 'search=WRK', 'fr')).toEqual([
      { code: 'WRK', name: 'Visa de travail' },
    ]);
    expect(await options('document', 'search=WRK', 'en')).toEqual([
      { code: 'WRK', name: 'Work visa' },
    ]);
    // Typed in French or in English, by a French reader; in French, not by an English one.
    expect((await options('document', 'search=travail', 'fr')).map((o) => o.code)).toEqual(['WRK']);
    expect((await options('document', 'search=work', 'fr')).map((o) => o.code)).toEqual(['WRK']);
    expect(await options('document', 'search=travail', 'en')).toEqual([]);
    expect(await options('sub-document', 'documentCode=VIS&search=VV30', 'fr')).toEqual([
      { code: 'VV30', name: 'Visa de visiteur, entrée unique, 30 jours' },
    ]);
    expect((await options('country', 'search=NZ', 'fr'))[0]).toEqual({
      code: 'NZ',
      name: 'Nouvelle-Zélande',
    });
  });

  it('filters and sorts the finder by the text its reader reads', async () => {
    const startingWith = (text: string) => ({
      filter: [{ field: 'name', criterion: 'startsWith', value: text }],
      options: { itemsPerPage: -1, sort: [{ field: 'name', direction: 'asc' }] },
    });
    const codes = (found: { items: Entry[] }) => found.items.map((item) => item.data.code);
    expect(codes(await search('country', startingWith('Nouvelle-'), 'fr'))).toEqual(['NC', 'NZ']);
    expect(codes(await search('country', startingWith('Nouvelle-'), 'en'))).toEqual([]);
    // Sorted as each reads: Algérie before Allemagne in French (by code, DE would come first).
    expect(codes(await search('country', startingWith('Al'), 'fr'))).toEqual(['AL', 'DZ', 'DE']);
    expect(codes(await search('country', startingWith('Al'), 'en'))).toEqual(['AL', 'DZ']);
  });

  it('takes each language’s text with the field’s own limits, and refuses a translation of anything else', async () => {
    const create = (body: Record<string, unknown>, language = 'en') =>
      api.call('POST', '/api/catalog/v1/document', {
        token: manager,
        body: { code: 'QTRN', name: 'Training visa', binder: 'VISA', ...body },
        headers: inLanguage(language),
      });
    const start = { startTime: '2020-01-01T00:00:00Z' };
    const long = await create({ ...start, i18n: { fr: { name: 'V'.repeat(36) } } }, 'fr');
    expect(long.statusCode).toBe(400);
    expect(long.json().error.fields).toContainEqual({
      path: '/i18n/fr/name',
      rule: 'maxLength',
      message: 'Doit comporter au plus 35 caractères',
    });
    const binder = await create({ ...start, i18n: { fr: { binder: 'Classeur' } } });
    expect(binder.statusCode).toBe(400);
    expect(binder.json().error.fields[0]).toMatchObject({ path: '/i18n/fr/binder' });
    expect(
      (await search('document', {}, 'en', manager)).items.map((e) => e.data.code),
    ).not.toContain('QTRN');

    const created = await create({ ...start, i18n: { fr: { name: 'Visa de formation' } } });
    expect(created.statusCode, created.body).toBe(201);
    expect((created.json() as Entry).data.i18n).toEqual({ fr: { name: 'Visa de formation' } });
    expect(await options('document', 'search=QTRN', 'fr')).toEqual([
      { code: 'QTRN', name: 'Visa de formation' },
    ]);
    // An entry without French reads in English to a French reader.
    const edited = await api.call(
      'PUT',
      `/api/catalog/v1/document/${(created.json() as Entry).id}`,
      {
        token: manager,
        body: {
          version: 1,
          data: { code: 'QTRN', name: 'Training visa', binder: 'VISA', ...start },
        },
      },
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await options('document', 'search=QTRN', 'fr')).toEqual([
      { code: 'QTRN', name: 'Training visa' },
    ]);
  });

  it('gives entries seeded before their French it at the next start, never an administrator’s', async () => {
    const db = api.server.database.db;
    const withoutFrench = () =>
      db
        .updateTable('catalog_entry')
        .set({ data: sql<string>`data - 'i18n'` })
        .where('catalog', '=', 'period')
        .execute();
    await withoutFrench();
    // An administrator reworded one since: theirs, in every language, stays as they left it.
    await db
      .updateTable('catalog_entry')
      .set({ updated_by: 'catalogue' })
      .where('catalog', '=', 'period')
      .where('entry_key', '=', 'WEEK')
      .execute();
    await api.restart();
    const periods = await search('period', { options: { itemsPerPage: -1 } }, 'fr', manager);
    const french = Object.fromEntries(
      periods.items.map((entry) => [
        entry.data.code,
        (entry.data.i18n as { fr?: { name?: string } })?.fr?.name,
      ]),
    );
    expect(french).toEqual({ DAY: 'Jours', WEEK: undefined, MONTH: 'Mois', YEAR: 'Années' });
  });

  it('gives the registration page the countries with their names in every language', async () => {
    const response = await api.call('GET', '/api/connectid/registration/options');
    expect(response.statusCode, response.body).toBe(200);
    const { countries, identityTypes } = response.json() as {
      countries: Array<{ code: string; name: string; i18n?: { fr?: { name?: string } } }>;
      identityTypes: Array<{ code: string; i18n?: { fr?: { description?: string } } }>;
    };
    expect(countries.find((c) => c.code === 'DE')).toEqual({
      code: 'DE',
      name: 'Germany',
      i18n: { fr: { name: 'Allemagne' } },
    });
    expect(identityTypes.find((type) => type.code === 'PASSPORT')?.i18n?.fr?.description).toBe(
      'Passeport',
    );
  });
});
