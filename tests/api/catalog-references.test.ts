import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entriesValidAt } from '../../src/server/catalog/valid-at';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

/**
 * References between catalogues name an entry valid at the referring entry's start, the
 * `type` of a declaration chooses whether it names a document or a sub-document, "valid at t"
 * is one query, format rules have their own messages, and the enumerations are served.
 */
describe.each(databaseKinds())('catalogue references and enumerations on %s', (kind) => {
  let api: ApiHarness;
  let manager: string;

  beforeAll(async () => {
    api = await startApiServer(kind);
    manager = await api.tokenFor(['asypx-catalog-manage', 'sso-catalog-manage']);
  });
  afterAll(async () => api?.close());

  const post = (catalog: string, body: Record<string, unknown>, locale = 'en') =>
    api.call('POST', `/api/catalog/v1/${catalog}`, { token: manager, body, headers: { locale } });
  const create = async (catalog: string, body: Record<string, unknown>) => {
    const response = await post(catalog, body);
    expect(response.statusCode, response.body).toBe(201);
  };
  const total = async (catalog: string) =>
    (
      await api.call('PATCH', `/api/catalog/v1/${catalog}`, {
        token: manager,
        body: { options: { page: 1, itemsPerPage: 1 } },
      })
    ).json().total as number;
  const document = (code: string, binder: string, startTime: string) => ({
    code,
    name: `Document ${code}`,
    binder,
    startTime,
  });

  it('refuses a reference to no entry, per field and translated, storing nothing', async () => {
    const before = await total('document');
    for (const [locale, message] of [
      ['en', 'No entry with this code is valid at the start of this entry'],
      ['fr', "Aucune entrée de ce code n'est valide au début de cette entrée"],
    ] as const) {
      const response = await post(
        'document',
        document('ZD1', 'NO-SUCH-BINDER', '2024-01-01T00:00:00Z'),
        locale,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual([
        { path: '/binder', rule: 'referenceUnknown', message },
      ]);
    }
    expect(await total('document')).toBe(before);
  });

  it('needs the referenced entry valid at the referring entry start, not merely some time', async () => {
    await create('binder', {
      code: 'ZLATE',
      name: 'Opens in 2025',
      startTime: '2025-01-01T00:00:00Z',
    });
    await create('binder', {
      code: 'ZGONE',
      name: 'Closed in 2023',
      startTime: '2020-01-01T00:00:00Z',
      endTime: '2023-01-01T00:00:00Z',
    });
    const early = await post('document', document('ZD2', 'ZLATE', '2024-12-31T23:59:59Z'));
    expect(early.json().error?.fields?.[0]?.rule).toBe('referenceUnknown');
    await create('document', document('ZD2', 'ZLATE', '2025-01-01T00:00:00Z'));
    // The end of a period is exclusive: an entry starting at the binder's end is refused.
    const after = await post('document', document('ZD3', 'ZGONE', '2023-01-01T00:00:00Z'));
    expect(after.json().error?.fields?.[0]?.rule).toBe('referenceUnknown');
    await create('document', document('ZD3', 'ZGONE', '2022-12-31T00:00:00Z'));
  });

  it('lets the type of a declaration say whether it names a document or a sub-document', async () => {
    await create('binder', { code: 'ZB', name: 'Test binder', startTime: '2020-01-01T00:00:00Z' });
    await create('document', document('ZDOC', 'ZB', '2020-01-01T00:00:00Z'));
    await create('period', { code: 'ZDAY', name: 'Day', startTime: '2020-01-01T00:00:00Z' });
    await create('sub-document', {
      documentCode: 'ZDOC',
      code: 'ZSUB',
      name: 'Test sub-document',
      allowedPeriodType: 'ZDAY',
      allowedPeriodNumber: 30,
      feeAmount: 50,
      otherAmount: 0,
      startTime: '2020-01-01T00:00:00Z',
    });
    const declaration = (type: string, documentCode: string) => ({
      documentCode,
      code: `Z${type}${documentCode.slice(1, 3)}`,
      type,
      description: 'I declare',
      startTime: '2024-01-01T00:00:00Z',
    });
    await create('declaration', declaration('1', 'ZDOC'));
    await create('declaration', declaration('2', 'ZSUB'));
    const wrongKind = await post('declaration', declaration('2', 'ZDOC'));
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json().error.fields[0]).toMatchObject({
      path: '/documentCode',
      rule: 'referenceUnknown',
    });
  });

  it('answers "valid at t" with one entry per key: start inclusive, end exclusive', async () => {
    await create('period', {
      code: 'ZWK',
      name: 'Week (old)',
      startTime: '2020-01-01T00:00:00Z',
      endTime: '2024-01-01T00:00:00Z',
    });
    await create('period', { code: 'ZWK', name: 'Week', startTime: '2024-01-01T00:00:00Z' });
    const db = api.server.database.db;
    const names = async (at: string) =>
      (await entriesValidAt(db, 'period', new Date(at), ['ZWK', 'ZNONE'])).map((e) => e.data.name);
    expect(await names('2023-12-31T23:59:59Z')).toEqual(['Week (old)']);
    expect(await names('2024-01-01T00:00:00Z')).toEqual(['Week']);
    expect(await names('2019-12-31T00:00:00Z')).toEqual([]);
    const all = await entriesValidAt(db, 'period', new Date('2024-06-01T00:00:00Z'));
    expect(all.map((e) => e.key)).toContain('ZWK');
    expect(new Set(all.map((e) => e.key)).size).toBe(all.length);
  });

  it('names a wrong mobile number or e-mail address with its own message, in both languages', async () => {
    const before = await total('trader');
    const trader = {
      code: 'ZT1',
      telephone: 'call me',
      email: 'nobody',
      startTime: '2024-01-01T00:00:00Z',
    };
    const messages = async (locale: string) => {
      const response = await post('trader', trader, locale);
      expect(response.statusCode).toBe(400);
      return response.json().error.fields as Array<{ path: string; rule: string; message: string }>;
    };
    expect(await messages('en')).toEqual([
      {
        path: '/telephone',
        rule: 'mobileNumber',
        message: 'Enter a valid mobile number, with its country code',
      },
      { path: '/email', rule: 'format_email', message: 'Enter a valid e-mail address' },
    ]);
    const french = await messages('fr');
    expect(french.map((f) => f.rule)).toEqual(['mobileNumber', 'format_email']);
    expect(french[0]!.message).toBe(
      'Saisissez un numéro de mobile valide, avec son indicatif de pays',
    );
    expect(french[1]!.message).toBe('Saisissez une adresse e-mail valide');
    expect(await total('trader')).toBe(before);
  });

  it('serves the enumerations with their ordinals, labelled in the request language', async () => {
    const english = await api.call('GET', '/api/catalog/enumerations', {
      headers: { locale: 'en' },
    });
    expect(english.statusCode).toBe(200);
    const body = english.json();
    expect(
      body.checkType.values.map((v: { name: string; ordinal: number }) => [v.name, v.ordinal]),
    ).toEqual([
      ['MANDATORY', 0],
      ['OPTIONAL', 1],
      ['PROHIBITED', 2],
    ]);
    expect(body.attributeType.values.map((v: { name: string }) => v.name)).toEqual([
      'FREE_TEXT',
      'CATALOG',
    ]);
    expect(body.documentType.values).toEqual([
      { name: 'DOCUMENT', ordinal: 1, value: '1', label: 'Document' },
      { name: 'SUB_DOCUMENT', ordinal: 2, value: '2', label: 'Sub-document' },
    ]);
    expect(body.filterCriteria.values.map((v: { name: string }) => v.name)).toEqual([
      'equals',
      'notEquals',
      'startsWith',
      'endsWith',
      'between',
      'greaterThan',
      'greaterThanOrEqual',
      'lessThan',
      'lessThanOrEqual',
      'empty',
      'notEmpty',
      'contains',
      'none',
    ]);
    const french = (
      await api.call('GET', '/api/catalog/enumerations', { headers: { locale: 'fr' } })
    ).json();
    expect(french.checkType.values.map((v: { label: string }) => v.label)).toEqual([
      'Obligatoire',
      'Facultatif',
      'Interdit',
    ]);
    expect(french.filterCriteria.values[2].label).not.toBe(body.filterCriteria.values[2].label);
  });
});
