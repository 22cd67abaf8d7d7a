import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogCsv } from '../../src/core/definitions/catalog-csv-read';
import type { CatalogDefinition } from '../../src/core/definitions/types';
import { formatDateTime, formatMoney } from '../../src/core/format';
import { parseCsv } from '../../src/engine/csv';
import { startApiServer, type ApiHarness } from '../support/api-server';
import { databaseKinds } from '../support/databases';

type Entry = { id: string; version: number; data: Record<string, unknown>; updatedBy: string };
type ImportAnswer = {
  dryRun: boolean;
  created: number;
  updated: number;
  unchanged: number;
  problems: Array<{ path: string; rule: string; message: string }>;
};

const FEES = '/api/catalog/v1/document-fee';
const START = '2020-01-01T00:00:00.000Z';
const LATER = '2030-01-01T00:00:00.000Z';
/** The header Export CSV writes for document fees on an English page, and on a French one. */
const ENGLISH_HEADER =
  'Document code,Code,Name (English),Name (French),Amount,Status,Charged automatically,Valid from,Valid until';
const FRENCH_HEADER =
  "Code du document,Code,Nom (anglais),Nom (français),Montant,Statut,Perçu automatiquement,Valide à partir du,Valide jusqu'au";

/**
 * Import CSV through the API (docs/catalogues.md, "Import CSV"): a file as the export writes it
 * (both languages' columns, amounts as money, dates DD/MM/YYYY HH:mm:ss, Yes/No) read by the
 * portal's reader and sent to `POST /api/catalog/v1/{catalog}/import`. A dry run counts what
 * would be created, updated and left alone and lists every row's problems from the server's own
 * checks, writing nothing; the import writes every row or none; only managers may; at most
 * 5,000 rows.
 */
describe.each(databaseKinds())('catalogue CSV import on %s', (kind) => {
  let api: ApiHarness;
  let manager: string;
  let reader: string;
  let fees: CatalogDefinition;

  beforeAll(async () => {
    api = await startApiServer(kind);
    manager = await api.tokenFor(['asypx-catalog-manage']);
    reader = await api.tokenFor(['catalog-read']);
    fees = api.server.definitions.catalogs.find((c) => c.id === 'document-fee')!;
    for (const [code, name, amount] of [
      ['IMA', 'Import fee A', 100],
      ['IMB', 'Import fee B', 200],
    ] as const) {
      const created = await api.call('POST', FEES, {
        token: manager,
        body: {
          documentCode: 'VIS',
          code,
          name,
          i18n: { fr: { name: `Frais ${code}` } },
          status: true,
          automatic: false,
          amount,
          startTime: START,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
    }
  });
  afterAll(async () => api?.close());

  /** A file's entries as the portal reads them, on a page in `language`. */
  const entriesOf = (csv: string, language: 'en' | 'fr' = 'en') => {
    const reading = readCatalogCsv(
      parseCsv(csv).rows,
      fees,
      api.server.definitions.translations,
      language,
    );
    expect(reading.problems).toEqual([]);
    return reading.entries;
  };
  const importing = (entries: unknown, dryRun: boolean, token = manager, language = 'en') =>
    api.call('POST', `${FEES}/import`, {
      token,
      body: { entries, dryRun },
      headers: { locale: language },
    });
  /** An import's answer, which must be a 200. */
  const counted = async (entries: unknown, dryRun: boolean): Promise<ImportAnswer> => {
    const response = await importing(entries, dryRun);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ImportAnswer;
  };
  const stored = async (code: string): Promise<Entry[]> => {
    const response = await api.call('PATCH', FEES, {
      token: manager,
      body: {
        filter: [{ field: 'code', criterion: 'equals', value: code }],
        options: { itemsPerPage: 50 },
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { items: Entry[] }).items;
  };
  /** A row as Export CSV writes it on an English page. */
  const row = (code: string, name: string, french: string, amount: number, start = START) =>
    `VIS,${code},${name},${french},${formatMoney(amount, 'en', 'NZD')},Yes,No,${formatDateTime(start)},`;

  it('previews a file as exported: created, updated and unchanged rows, writing nothing', async () => {
    const csv = [
      ENGLISH_HEADER,
      row('IMA', 'Import fee A', 'Frais IMA', 100),
      // A cell holding a comma is quoted, as Papa.unparse writes it.
      `VIS,IMB,Import fee B,Frais IMB,"NZD 1,250.50",Yes,No,${formatDateTime(START)},`,
      row('IMC', 'Import fee C', 'Frais IMC', 30, LATER),
    ].join('\r\n');
    const entries = entriesOf(csv);
    // Money, dates and flags read back as the entry holds them.
    expect(entries[1]).toEqual({
      documentCode: 'VIS',
      code: 'IMB',
      name: 'Import fee B',
      i18n: { fr: { name: 'Frais IMB' } },
      amount: 1250.5,
      status: true,
      automatic: false,
      startTime: START,
    });
    expect(await counted(entries, true)).toEqual({
      dryRun: true,
      created: 1,
      updated: 1,
      unchanged: 1,
      problems: [],
    });
    expect(await stored('IMC')).toEqual([]);
    expect((await stored('IMB'))[0]).toMatchObject({ version: 1, data: { amount: 200 } });
  });

  it('names every problem by row and field, in the request’s language, and refuses the import', async () => {
    const long = 'x'.repeat(76);
    const entries = entriesOf(
      [
        ENGLISH_HEADER,
        row('IMD', 'Import fee D', 'Frais IMD', 40),
        'VIS,IME,Import fee E,,a lot,Yes,No,01/01/2020 00:00:00,',
        `VIS,IMF,Import fee F,${long},NZD 1.00,Yes,No,01/01/2020 00:00:00,`,
        'ZZZ,IMG,Import fee G,,NZD 1.00,Yes,No,01/01/2020 00:00:00,',
        // Overlaps the stored IMA, which has no end.
        row('IMA', 'Import fee A', 'Frais IMA', 100, LATER),
        row('IMD', 'Import fee D again', '', 40),
      ].join('\n'),
    );
    const preview = await importing(entries, true, manager, 'fr');
    expect(preview.statusCode, preview.body).toBe(200);
    const answer = preview.json() as ImportAnswer;
    expect(answer).toMatchObject({ created: 1, updated: 0, unchanged: 0 });
    expect(answer.problems.map(({ path, rule }) => `${path} ${rule}`)).toEqual([
      '/entries/1/amount type',
      '/entries/2/i18n/fr/name maxLength',
      '/entries/3/documentCode referenceUnknown',
      '/entries/4/startTime overlappingPeriod',
      '/entries/5/startTime importDuplicate',
    ]);
    expect(answer.problems[0]!.message).toBe(
      "Cette valeur n'a pas le bon type (attendu : un nombre)",
    );
    expect(answer.problems[4]!.message).toBe(
      'Une autre ligne du fichier a la même clé et le même début',
    );

    const refused = await importing(entries, false);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('Nothing was imported'),
    });
    expect(refused.json().error.fields).toHaveLength(5);
    // All or none: the row that was fine is not written either.
    expect(await stored('IMD')).toEqual([]);
  });

  it('writes every row in one go: creates, updates with a new version, leaves equal rows alone', async () => {
    const entries = entriesOf(
      [
        FRENCH_HEADER,
        // As a French page exports: amounts in French, Oui/Non, the French name.
        `VIS,IMA,Import fee A,Frais IMA,"${formatMoney(100, 'fr', 'NZD')}",Oui,Non,${formatDateTime(START)},`,
        `VIS,IMB,Import fee B,Frais B révisés,"${formatMoney(1234.5, 'fr', 'NZD')}",Oui,Oui,${formatDateTime(START)},${formatDateTime(LATER)}`,
        `VIS,IMH,Import fee H,Frais IMH,"12,5",Non,Non,${formatDateTime(START)},`,
      ].join('\n'),
      'fr',
    );
    expect(await counted(entries, false)).toEqual({
      dryRun: false,
      created: 1,
      updated: 1,
      unchanged: 1,
      problems: [],
    });
    expect((await stored('IMA'))[0]).toMatchObject({ version: 1 });
    expect((await stored('IMB'))[0]).toMatchObject({
      version: 2,
      updatedBy: 'tester',
      data: {
        amount: 1234.5,
        automatic: true,
        i18n: { fr: { name: 'Frais B révisés' } },
        endTime: LATER,
      },
    });
    expect((await stored('IMH'))[0]).toMatchObject({
      version: 1,
      data: { amount: 12.5, status: false, name: 'Import fee H' },
    });
    // A file that ends a period and opens the next: the update is written first.
    const next = entriesOf(
      [
        ENGLISH_HEADER,
        row('IMH', 'Import fee H from 2030', '', 15, LATER),
        `${row('IMH', 'Import fee H', 'Frais IMH', 12.5)}${formatDateTime(LATER)}`,
      ].join('\n'),
    );
    expect(await counted(next, false)).toMatchObject({ created: 1, updated: 1 });
    expect(await stored('IMH')).toHaveLength(2);
  });

  it('keeps what only the system writes, whatever a row says', async () => {
    const countries = '/api/catalog/v1/country';
    const countryManager = await api.tokenFor(['catalog-manage']);
    const before = await api.call('PATCH', countries, {
      token: countryManager,
      body: { filter: [{ field: 'code', criterion: 'equals', value: 'WS' }] },
    });
    const samoa = (before.json() as { items: Entry[] }).items[0]!;
    const response = await api.call('POST', `${countries}/import`, {
      token: countryManager,
      body: {
        dryRun: false,
        entries: [{ ...samoa.data, name: 'Samoa (imported)', alpha3Code: 'XXX', numericCode: 1 }],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ updated: 1 });
    const after = await api.call('GET', `${countries}/${samoa.id}`, { token: countryManager });
    expect(after.json().data).toMatchObject({
      name: 'Samoa (imported)',
      alpha3Code: samoa.data.alpha3Code,
      numericCode: samoa.data.numericCode,
    });
  });

  it('lets only a catalogue manager import', async () => {
    const entries = [{ documentCode: 'VIS', code: 'IMX', name: 'X', startTime: START }];
    expect((await importing(entries, true, reader)).statusCode).toBe(403);
    const anonymous = await api.call('POST', `${FEES}/import`, { body: { entries, dryRun: true } });
    expect(anonymous.statusCode).toBe(401);
    // Beyond the API's usual limit (1 MiB), a body is read for a manager only.
    const big = [{ ...entries[0], name: 'x'.repeat(2 * 1024 * 1024) }];
    expect((await importing(big, true, reader)).statusCode).toBe(403);
    expect((await counted(big, true)).problems).toContainEqual(
      expect.objectContaining({ path: '/entries/0/name', rule: 'maxLength' }),
    );
    expect(await stored('IMX')).toEqual([]);
  });

  it('refuses more than 5,000 rows and malformed bodies with a translated 4xx', async () => {
    const many = Array.from({ length: 5001 }, (_, index) => ({ code: `M${index}` }));
    const tooMany = await importing(many, true, manager, 'fr');
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message:
        'Un fichier peut contenir au plus 5\u202f000 lignes ; celui-ci en a 5\u202f001. Découpez-le en fichiers plus petits.',
    });
    for (const body of [
      {},
      { entries: 'all', dryRun: true },
      { entries: [], dryRun: true },
      { entries: [{}], dryRun: 'yes' },
      [],
    ]) {
      const response = await api.call('POST', `${FEES}/import`, { token: manager, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
    // Rows that are no entries at all are problems of their rows, not a failure.
    expect((await counted([42, null, 'text'], true)).problems.map((p) => p.path)).toEqual([
      '/entries/0',
      '/entries/1',
      '/entries/2',
    ]);
  });
});
