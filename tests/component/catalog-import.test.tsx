// Import CSV on a catalogue's search page: the file Export CSV writes imports back as it is
// (every field, both languages, money, dates, flags), the preview gives the server's counts and
// every problem by row and column in the page's language, Import asks first and then says what
// it did, a file whose columns are not the catalogue's is refused before anything is sent, and
// only a manager is offered the button.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { CatalogEntryRecord } from '../../src/core/definitions/catalog-entry';
import type { CatalogDefinition, DefinitionBundle } from '../../src/core/definitions/types';
import type { SearchResult } from '../../src/core/search/protocol';
import { CatalogFinder } from '../../src/engine/CatalogFinder';
import type { CatalogImportResult } from '../../src/engine/CatalogImportDialog';
import { changeLanguage } from '../../src/portal/i18n';
import {
  acceptingValidator,
  exported,
  laptopWindow,
  readJson,
  startTexts,
} from './catalog-support';

let fees: CatalogDefinition;
let translations: DefinitionBundle['translations'];
const validatorUrl = acceptingValidator('catalog-import-test');

beforeAll(async () => {
  fees = await readJson<CatalogDefinition>('catalogs/document-fee.json');
  translations = await startTexts([fees]);
});

laptopWindow();

/** Two fees as the server returns them: one with its French name and an end, one without. */
const DATA = [
  {
    documentCode: 'VIS',
    code: 'APP',
    name: 'Application fee, standard',
    status: true,
    automatic: true,
    amount: 1250.5,
    i18n: { fr: { name: 'Frais de dossier' } },
    startTime: '2020-01-01T00:00:00.000Z',
    endTime: '2031-06-30T22:00:00.000Z',
  },
  {
    documentCode: 'VIS',
    code: 'URG',
    name: 'Urgent processing fee',
    status: false,
    automatic: false,
    amount: 100,
    startTime: '2024-03-15T08:30:00.000Z',
    endTime: null,
  },
];

function fakeApi(answers: Array<ApiResult<CatalogImportResult>>) {
  const items: CatalogEntryRecord[] = DATA.map((data, index) => ({
    id: `e-${index}`,
    version: 1,
    data,
    createdAt: '2020-01-01T00:00:00.000Z',
    createdBy: 'seed',
    updatedAt: '2020-01-01T00:00:00.000Z',
    updatedBy: 'seed',
  }));
  const search = vi.fn((): Promise<ApiResult<SearchResult<CatalogEntryRecord>>> =>
    Promise.resolve([
      null,
      { items, total: items.length, page: 1, itemsPerPage: 10, capped: false },
    ]),
  );
  const post = vi.fn(() => Promise.resolve(answers.shift()!));
  return { search, post, api: { search, post } as unknown as ApiClient };
}

function renderFinder(api: ApiClient, { canManage = true, language = 'en' as 'en' | 'fr' } = {}) {
  render(
    <MantineProvider env="test">
      <CatalogFinder
        catalog={fees}
        api={api}
        language={language}
        translations={translations}
        canManage={canManage}
        validatorUrl={validatorUrl}
        allCatalogs={[fees]}
      />
    </MantineProvider>,
  );
}

/** Opens Import CSV and chooses a file holding `text`. */
async function importFile(buttonName: RegExp, text: string) {
  fireEvent.click(screen.getByRole('button', { name: buttonName }));
  const dialog = await screen.findByRole('dialog');
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File([text], 'fees.csv')] } });
  return dialog;
}

const preview = (result: Partial<CatalogImportResult>): ApiResult<CatalogImportResult> => [
  null,
  { dryRun: true, created: 0, updated: 0, unchanged: 0, problems: [], ...result },
];

describe('Import CSV', () => {
  it('imports the exported file back as it is, shows the counts, asks, then says what it did', async () => {
    const { api, post } = fakeApi([
      preview({ updated: 1, unchanged: 1 }),
      [null, { dryRun: false, created: 0, updated: 1, unchanged: 1, problems: [] }],
    ]);
    renderFinder(api);
    await screen.findByRole('cell', { name: 'Urgent processing fee' });
    const csv = await exported();
    // Every field, not only the finder's columns: "Charged automatically" too.
    expect(csv.replace(/^\ufeff/, '').split(/\r?\n/)[0]).toBe(
      'Document code,Code,Name (English),Name (French),Amount,Status,Charged automatically,Refundable until,Valid from,Valid until',
    );
    const dialog = await importFile(/^Import CSV$/, csv);

    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    const [backend, address, body] = post.mock.calls[0] as unknown as [string, string, object];
    expect([backend, address]).toEqual(['catalog', '/document-fee/import']);
    // What the server stores, exactly: the round trip loses nothing.
    expect(body).toEqual({
      dryRun: true,
      entries: DATA.map(({ endTime, ...data }) => (endTime ? { ...data, endTime } : data)),
    });
    const counts = await within(dialog).findByTestId('import-counts');
    expect(counts.textContent).toContain('0 entries will be created');
    expect(counts.textContent).toContain('1 entry will be updated');
    expect(counts.textContent).toContain('1 row changes nothing');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));
    const question = within(dialog).getByRole('alertdialog');
    expect(question.textContent).toContain(
      'Write these changes to the catalogue now? 0 entries will be created, 1 entry will be updated.',
    );
    expect(post).toHaveBeenCalledTimes(1);
    fireEvent.click(within(question).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    expect((post.mock.calls[1] as unknown as [string, string, { dryRun: boolean }])[2].dryRun).toBe(
      false,
    );
    expect((await screen.findByRole('status')).textContent).toBe(
      'Imported: 0 entries created, 1 updated, 1 unchanged.',
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lists every problem by the file’s row and column in French, and offers no Import', async () => {
    await changeLanguage('fr');
    const { api } = fakeApi([
      preview({
        created: 1,
        problems: [
          { path: '/entries/0/amount', rule: 'type', message: "Cette valeur n'a pas le bon type" },
          {
            path: '/entries/1/i18n/fr/name',
            rule: 'maxLength',
            message: 'Doit comporter au plus 75 caractères',
          },
          { path: '/entries/1/name', rule: 'required', message: 'Ce champ est obligatoire' },
          { path: '/entries/2', rule: 'type', message: "Cette valeur n'a pas le bon type" },
        ],
      }),
    ]);
    renderFinder(api, { language: 'fr' });
    await screen.findByRole('cell', { name: 'Frais de dossier' });
    const dialog = await importFile(/^Importer un CSV$/, await exported());
    const table = await within(dialog).findByRole('table', {
      name: 'Problèmes, par ligne du fichier et par colonne',
    });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Ligne', 'Colonne', 'Problème'],
      ['2', 'Montant', "Cette valeur n'a pas le bon type"],
      ['3', 'Nom (français)', 'Doit comporter au plus 75 caractères'],
      ['3', 'Nom (anglais)', 'Ce champ est obligatoire'],
      ['4', 'Toute la ligne', "Cette valeur n'a pas le bon type"],
    ]);
    expect(within(dialog).getByText(/^4 problèmes : corrigez-les/)).toBeTruthy();
    expect(within(dialog).getByTestId('import-counts').textContent).toContain(
      '1 entrée sera créée',
    );
    expect(
      (within(dialog).getByRole('button', { name: 'Importer' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('refuses a file whose columns are not the catalogue’s before sending anything', async () => {
    const { api, post } = fakeApi([]);
    renderFinder(api);
    await screen.findByRole('cell', { name: 'Urgent processing fee' });
    const dialog = await importFile(/^Import CSV$/, 'Code,Code,Colour\nAPP,APP,blue\n');
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('The column “Code” appears twice');
    expect(alert.textContent).toContain('The column “Colour” is not a field of this catalogue');
    expect(post).not.toHaveBeenCalled();
    expect(within(dialog).queryByRole('button', { name: 'Import' })).toBeNull();
  });

  it('notes the columns a file lacks, whose fields the entries will not have', async () => {
    const { api } = fakeApi([preview({ created: 1 })]);
    renderFinder(api);
    await screen.findByRole('cell', { name: 'Urgent processing fee' });
    const dialog = await importFile(
      /^Import CSV$/,
      'documentCode,code,name,amount,status,automatic,startTime\nVIS,NEW,New fee,10,true,false,2030-01-01T00:00:00Z\n',
    );
    expect(
      await within(dialog).findByText(
        'The file has no column for Name (French), Refundable until, Valid until: these fields will be empty in the entries it creates or updates.',
      ),
    ).toBeTruthy();
  });

  it('is offered to managers only', async () => {
    renderFinder(fakeApi([]).api, { canManage: false });
    await screen.findByRole('cell', { name: 'Urgent processing fee' });
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Import CSV' })).toBeNull();
  });
});
