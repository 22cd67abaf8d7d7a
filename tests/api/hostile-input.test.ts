import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';
import { visaApplication } from '../support/visa-data';

const VISAS = '/api/evisa/visa-application';

/**
 * Requests an attacker sends that once answered 500 (found by probing the running portal):
 * each now gets a clear 4xx and changes nothing.
 */
describe.each(databaseKinds())('hostile input on %s', (kind) => {
  let api: ApiHarness;
  let applicant: string;
  let manager: string;
  beforeAll(async () => {
    api = await startApiServer(kind);
    applicant = await api.tokenFor(
      ['visa-application-submit', 'visa-application-read', 'visa-application-update'],
      { sub: 'hostile-applicant' },
    );
    manager = await api.tokenFor(['catalog-manage', 'catalog-read']);
  });
  afterAll(async () => api?.close());

  const documents = async () =>
    Number(
      (
        await api.tables
          .selectFrom('document')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers 404 to an action named after an object’s own properties', async () => {
    const before = await documents();
    for (const action of ['constructor', 'hasOwnProperty', 'toString', '__proto__']) {
      const created = await api.call('POST', VISAS, {
        token: applicant,
        body: { action, data: visaApplication('VIS', 'VV30') },
      });
      expect(created.statusCode, `${action}: ${created.body}`).toBe(404);
    }
    const draft = await api.call('POST', VISAS, {
      token: applicant,
      body: { action: 'store', data: visaApplication('VIS', 'VV30') },
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const { id, version } = draft.json();
    for (const action of ['constructor', 'hasOwnProperty', 'toString', 'valueOf']) {
      const acted = await api.call('POST', `${VISAS}/${id}/actions/${action}`, {
        token: applicant,
        body: { version },
      });
      expect(acted.statusCode, `${action}: ${acted.body}`).toBe(404);
    }
    // A version no integer column holds: refused by the caller's mistake, never the database.
    for (const huge of [9007199254740992, 2147483648]) {
      const stale = await api.call('POST', `${VISAS}/${id}/actions/update`, {
        token: applicant,
        body: { version: huge, data: visaApplication('VIS', 'VV30') },
      });
      expect(stale.statusCode, stale.body).toBe(400);
      const old = await api.call('GET', `${VISAS}/${id}/versions/${huge}`, { token: applicant });
      expect(old.statusCode, old.body).toBe(404);
    }
    expect(await documents()).toBe(before + 1);
  });

  it('answers 400 to a catalogue version beyond the integers it can hold', async () => {
    const listed = await api.call('PATCH', '/api/catalog/v1/country', {
      token: manager,
      body: { page: 1, itemsPerPage: 1 },
    });
    const entry = listed.json().items[0] as { id: string };
    for (const version of ['9007199254740992', '1e400', '-1', '1.5', 'x']) {
      const removed = await api.call(
        'DELETE',
        `/api/catalog/v1/country/${entry.id}?version=${version}`,
        { token: manager },
      );
      expect(removed.statusCode, `${version}: ${removed.body}`).toBeGreaterThanOrEqual(400);
      expect(removed.statusCode, `${version}: ${removed.body}`).toBeLessThan(500);
    }
    const still = await api.call('GET', `/api/catalog/v1/country/${entry.id}`, { token: manager });
    expect(still.statusCode).toBe(200);
  });

  /** Every document's version, and the outbox: a refused request moves none of them. */
  const written = async () => {
    const db = api.tables;
    const versions = await db
      .selectFrom('document')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.sum<string>('version').as('v')])
      .executeTakeFirstOrThrow();
    const outbox = await db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return `${versions.n} documents, versions ${versions.v}, ${outbox.n} messages`;
  };
  const nulRefused = (
    response: { statusCode: number; body: string; json(): unknown },
    path: string,
  ) => {
    expect(response.statusCode, response.body).toBe(400);
    const { error } = response.json() as {
      error: { code: string; fields: Array<{ path: string; rule: string; message: string }> };
    };
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fields).toEqual([expect.objectContaining({ path, rule: 'nulCharacter' })]);
    return error.fields[0]!.message;
  };

  it('answers a translated 400 to a NUL character in a body, a query or a path, and writes nothing', async () => {
    const before = await written();
    // The public check, signed out, in French: refused before the database is asked.
    const checked = await api.call('POST', '/api/evisa/verification', {
      body: { number: 'VIS-2026-\u0000000001', secondFactor: 'PA1234567' },
      headers: { locale: 'fr' },
    });
    expect(nulRefused(checked, '/number')).toMatch(/caractère NUL/);
    // An invoice's item reference, on create, replace (PUT) and the update action.
    const payer = await api.tokenFor(
      ['create', 'read', 'update', 'search'].map((r) => `payment-invoice-${r}`),
      { sub: 'hostile-payer' },
    );
    const invoice = (reference: string) => ({
      payer: { name: 'Mele Agent', sameAsName: true, email: 'agent@example.org' },
      items: [{ reference }],
    });
    const INVOICES = '/api/evisa/payment-invoice';
    const created = await api.call('POST', INVOICES, {
      token: payer,
      body: { action: 'create', data: invoice('VIS-2026-\u0000') },
    });
    expect(nulRefused(created, '/data/items/0/reference')).toMatch(/NUL character/);
    const draft = await api.call('POST', VISAS, {
      token: applicant,
      body: { action: 'store', data: visaApplication('VIS', 'VV30') },
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const { id, version } = draft.json() as { id: string; version: number };
    const afterDraft = await written();
    const replaced = await api.call('PUT', `${VISAS}/${id}`, {
      token: applicant,
      body: { version, data: { ...visaApplication('VIS', 'VV30'), note: 'a\u0000b' } },
    });
    nulRefused(replaced, '/data/note');
    const updated = await api.call('POST', `${VISAS}/${id}/actions/update`, {
      token: applicant,
      body: { version, data: { applicant: { ['given\u0000Name']: 'x' } } },
    });
    nulRefused(updated, '/data/applicant/given\u0000Name');
    const invoiceUpdate = await api.call('POST', `${INVOICES}/${id}/actions/update`, {
      token: payer,
      body: { version, data: invoice('\u0000') },
    });
    nulRefused(invoiceUpdate, '/data/items/0/reference');
    // In a query and in a path parameter.
    const options = await api.call('GET', '/api/catalog/v1/country/options?search=a%00', {
      token: applicant,
    });
    nulRefused(options, '/search');
    const read = await api.call('GET', `${VISAS}/a%00b`, { token: applicant });
    nulRefused(read, '/id');
    expect(await written()).toBe(afterDraft);
    expect(afterDraft).not.toBe(before);
  });

  it('answers a translated 400 to an inbox limit that is not a whole number from 1 to 50', async () => {
    for (const limit of ['abc', '', '-1', '0', '51', '1e3', '1.5', 'true', 'a&limit=b']) {
      const response = await api.call('GET', `/api/evisa/dashboard/inbox?limit=${limit}`, {
        token: applicant,
        headers: { locale: 'fr' },
      });
      expect(response.statusCode, `${limit}: ${response.body}`).toBe(400);
      const { error } = response.json() as {
        error: { fields: Array<{ path: string; message: string }> };
      };
      expect(error.fields[0], limit).toMatchObject({ path: '/limit' });
      expect(error.fields[0]!.message, limit).not.toMatch(/^validation\./);
    }
    const fine = await api.call('GET', '/api/evisa/dashboard/inbox?limit=3', { token: applicant });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('refuses an owner that is not a sign-in name, or given to an action that hands nothing over', async () => {
    const before = await documents();
    for (const owner of [42, {}, ['applicant'], null, true]) {
      const created = await api.call('POST', VISAS, {
        token: applicant,
        body: { action: 'store', owner, data: visaApplication('VIS', 'VV30') },
      });
      expect(created.statusCode, `${JSON.stringify(owner)}: ${created.body}`).toBe(400);
      expect(created.json().error.fields).toEqual([
        expect.objectContaining({ path: '/owner', rule: 'type' }),
      ]);
    }
    // `store` makes the caller's own application: a name given to it is not silently dropped.
    const named = await api.call('POST', VISAS, {
      token: applicant,
      body: { action: 'store', owner: 'someone.else', data: visaApplication('VIS', 'VV30') },
    });
    expect(named.statusCode, named.body).toBe(400);
    expect(named.json().error.fields).toEqual([
      expect.objectContaining({ path: '/owner', rule: 'additionalProperties' }),
    ]);
    // An action made on someone's behalf takes a name, not a number.
    const agent = await api.tokenFor(['sponsor-application-create', 'sponsor-application-read']);
    const onBehalf = await api.call('POST', '/api/evisa/sponsor-application', {
      token: agent,
      body: { action: 'create', owner: 42, data: {} },
    });
    expect(onBehalf.statusCode, onBehalf.body).toBe(400);
    expect(onBehalf.json().error.fields).toEqual([
      expect.objectContaining({ path: '/owner', rule: 'type' }),
    ]);
    expect(await documents()).toBe(before);
  });
});

/**
 * Uploads that are not what the media endpoint expects: no boundary, a form field
 * where the file should be, a body cut short. Each is the sender's mistake, answered 400 with
 * the file field named, and nothing is stored.
 */
describe('malformed uploads', () => {
  let api: ApiHarness;
  let token: string;
  beforeAll(async () => {
    api = await startApiServer('pglite');
    token = await api.tokenFor([], { sub: 'uploader' });
  });
  afterAll(async () => api?.close());

  const upload = (contentType: string, payload: string | Buffer) =>
    api.app.inject({
      method: 'POST',
      url: '/api/media',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
  const stored = async () =>
    (await api.server.database.db.selectFrom('media').select('id').execute()).length;

  it('answers 400 naming the file, never 413 or 500, and stores nothing', async () => {
    const boundary = 'x-boundary';
    const pdf = '%PDF-1.4 a short document';
    const cases: Array<[string, string, string]> = [
      ['no boundary', 'multipart/form-data', `--${boundary}\r\n\r\nhello\r\n--${boundary}--\r\n`],
      [
        'a field instead of the file',
        `multipart/form-data; boundary=${boundary}`,
        `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n\r\nnot a file\r\n--${boundary}--\r\n`,
      ],
      [
        'a body cut short',
        `multipart/form-data; boundary=${boundary}`,
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n${pdf}`,
      ],
      ['an empty body', `multipart/form-data; boundary=${boundary}`, ''],
    ];
    const before = await stored();
    for (const [what, contentType, payload] of cases) {
      const response = await upload(contentType, payload);
      expect(response.statusCode, `${what}: ${response.body}`).toBe(400);
      expect(response.json().error.fields?.[0]?.path, what).toBe('/file');
    }
    expect(await stored()).toBe(before);
  });

  it('answers 400 to two files in one upload, and stores neither', async () => {
    const boundary = 'x-boundary';
    const part = (name: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 ${name}\r\n`;
    const before = await stored();
    const both = await upload(
      `multipart/form-data; boundary=${boundary}`,
      `${part('a.pdf')}${part('b.pdf')}--${boundary}--\r\n`,
    );
    expect(both.statusCode, both.body).toBe(400);
    expect(both.json().error.fields).toEqual([
      expect.objectContaining({
        path: '/file',
        rule: 'oneFile',
        message: 'Send one file at a time',
      }),
    ]);
    expect(await stored()).toBe(before);
    const one = await upload(
      `multipart/form-data; boundary=${boundary}`,
      `${part('a.pdf')}--${boundary}--\r\n`,
    );
    expect(one.statusCode, one.body).toBe(201);
  });
});
