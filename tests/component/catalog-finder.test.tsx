// A catalogue's search page as its users meet it: Finder shows and hides the filter bar, Open
// opens the selected row's entry to edit (to view, for a reader), the View Entry dialog says
// whether the entry is valid now and who made it (the reference data, in words), the Country's
// alpha-3 and numeric codes are kept out of sight (finder, filter, dialogs) and out of an edit,
// a translatable name reads in the reader's language and is taken and shown in every language,
// the export has a column per language, and an amount reads as money.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { CatalogEntryRecord } from '../../src/core/definitions/catalog-entry';
import type { CatalogDefinition, DefinitionBundle } from '../../src/core/definitions/types';
import type { SearchResult } from '../../src/core/search/protocol';
import { CatalogFinder } from '../../src/engine/CatalogFinder';
import { validityStatus } from '../../src/engine/catalog-fields';
import { changeLanguage } from '../../src/portal/i18n';
import {
  acceptingValidator,
  exported,
  laptopWindow,
  readJson,
  startTexts,
} from './catalog-support';

let country: CatalogDefinition;
let documentFee: CatalogDefinition;
let translations: DefinitionBundle['translations'];
const validatorUrl = acceptingValidator('catalog-finder-test');

beforeAll(async () => {
  country = await readJson<CatalogDefinition>('catalogs/country.json');
  documentFee = await readJson<CatalogDefinition>('catalogs/document-fee.json');
  translations = await startTexts([country]);
});

laptopWindow();

const DAY = 24 * 3600 * 1000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

function entry(id: string, data: Record<string, unknown>): CatalogEntryRecord {
  return {
    id,
    version: 3,
    data: { startTime: '2020-01-01T00:00:00.000Z', endTime: null, ...data },
    createdAt: '2020-01-01T00:00:00.000Z',
    createdBy: 'seed',
    updatedAt: '2024-05-06T07:08:09.000Z',
    updatedBy: 'catalogue',
  };
}

const ENTRIES = [
  entry('e-ws', { code: 'WS', name: 'Samoa', alpha3Code: 'WSM', numericCode: 882 }),
  entry('e-to', {
    code: 'TO',
    name: 'Tonga',
    alpha3Code: 'TON',
    numericCode: 776,
    endTime: iso(-DAY),
  }),
  entry('e-qz', {
    code: 'QZ',
    name: 'Quokka Islands',
    startTime: iso(30 * DAY),
    i18n: { fr: { name: 'Îles Quokka' } },
  }),
];

function fakeApi(entries = ENTRIES) {
  const search = vi.fn((): Promise<ApiResult<SearchResult<CatalogEntryRecord>>> =>
    Promise.resolve([
      null,
      { items: entries, total: entries.length, page: 1, itemsPerPage: 10, capped: false },
    ]),
  );
  const get = vi.fn((_backend: string, address: string) =>
    Promise.resolve([null, entries.find((e) => address.endsWith(`/${e.id}`))]),
  );
  const put = vi.fn(() => Promise.resolve([null, {}]));
  return { search, get, put, api: { search, get, put } as unknown as ApiClient };
}

function renderFinder(
  api: ApiClient,
  canManage = true,
  { catalog = country, language = 'en' as const as 'en' | 'fr' } = {},
) {
  render(
    <MantineProvider env="test">
      <CatalogFinder
        catalog={catalog}
        api={api}
        language={language}
        translations={translations}
        canManage={canManage}
        validatorUrl={validatorUrl}
        allCatalogs={[country, documentFee]}
      />
    </MantineProvider>,
  );
}

describe('catalogue search page', () => {
  it('shows and hides the filter bar with Finder, saying so with aria-expanded', async () => {
    renderFinder(fakeApi().api);
    await screen.findByRole('cell', { name: 'Samoa' });
    const finder = screen.getByRole('button', { name: 'Finder' });
    const bar = document.getElementById(finder.getAttribute('aria-controls') ?? '')!;
    expect(finder.getAttribute('aria-expanded')).toBe('true');
    expect(within(bar).getByRole('combobox', { name: 'Field' })).toBeTruthy();
    expect(bar.hidden).toBe(false);

    fireEvent.click(finder);
    expect(finder.getAttribute('aria-expanded')).toBe('false');
    expect(bar.hidden).toBe(true);
    expect(screen.queryByRole('button', { name: 'Apply' })).toBeNull();
    fireEvent.click(finder);
    expect(finder.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: 'Apply' })).toBeTruthy();
  });

  it('opens the selected row to edit, and the edit sends none of the codes it does not show', async () => {
    const { api, get, put } = fakeApi();
    renderFinder(api);
    const open = await screen.findByRole('button', { name: 'Open' });
    await screen.findByRole('cell', { name: 'Samoa' });
    expect(open.hasAttribute('disabled')).toBe(true);

    // One radio per row, all in one group: the keyboard's way of choosing a row.
    const radios = screen.getAllByRole('radio');
    expect(radios).toHaveLength(3);
    expect(new Set(radios.map((radio) => radio.getAttribute('name'))).size).toBe(1);
    const samoa = screen.getByRole('radio', { name: 'Select WS' });
    fireEvent.click(samoa);
    expect((samoa as HTMLInputElement).checked).toBe(true);
    // Choosing a row does not open it (the row's own click shows it).
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(open.hasAttribute('disabled')).toBe(false);

    fireEvent.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Edit Entry' });
    expect(get).toHaveBeenCalledWith('catalog', '/country/e-ws');
    expect((within(dialog).getByLabelText(/^Code/) as HTMLInputElement).value).toBe('WS');
    expect(within(dialog).queryByText(/Alpha-3|Numeric/)).toBeNull();
    expect(within(dialog).queryByDisplayValue('WSM')).toBeNull();

    fireEvent.change(within(dialog).getByLabelText(/^Name \(English\)/), {
      target: { value: 'Independent State of Samoa' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    // Only the system writes the codes: the server keeps them, so the edit does not send them.
    const sent = (put.mock.calls[0] as unknown[])[2] as { version: number; data: object };
    expect(sent.version).toBe(3);
    expect(sent.data).toMatchObject({ code: 'WS', name: 'Independent State of Samoa' });
    expect(sent.data).not.toHaveProperty('alpha3Code');
    expect(sent.data).not.toHaveProperty('numericCode');
    expect(sent.data).not.toHaveProperty('i18n');
  });

  it('opens the selected row to view for a reader, who may not edit', async () => {
    renderFinder(fakeApi().api, false);
    fireEvent.click(await screen.findByRole('radio', { name: 'Select TO' }));
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = await screen.findByRole('dialog', { name: 'View Entry' });
    await within(dialog).findByText('Tonga');
    expect(within(dialog).queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('keeps the alpha-3 and numeric codes out of the columns, the filter and the View dialog', async () => {
    renderFinder(fakeApi().api);
    await screen.findByRole('cell', { name: 'Samoa' });
    const headers = document.querySelector('thead')!.textContent;
    expect(headers).toMatch(/Code.*Name.*Valid from.*Valid until/);
    expect(headers).not.toMatch(/Alpha-3|Numeric/);
    expect(screen.queryByRole('cell', { name: 'WSM' })).toBeNull();

    fireEvent.click(screen.getByRole('combobox', { name: 'Field' }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Code', 'Name', 'Valid from', 'Valid until']);

    fireEvent.click(screen.getByRole('cell', { name: 'Samoa' }));
    const dialog = await screen.findByRole('dialog', { name: 'View Entry' });
    await within(dialog).findByText('Samoa');
    expect(within(dialog).queryByText('WSM')).toBeNull();
    expect(within(dialog).queryByText(/Alpha-3|Numeric/)).toBeNull();
  });

  it.each([
    ['Samoa', 'Status: valid'],
    ['Tonga', 'Status: expired'],
    ['Quokka Islands', 'Status: not yet valid'],
  ])('says in words whether %s is valid now, beside who changed it', async (name, status) => {
    renderFinder(fakeApi().api);
    fireEvent.click(await screen.findByRole('cell', { name }));
    const dialog = await screen.findByRole('dialog', { name: 'View Entry' });
    expect((await within(dialog).findByTestId('entry-status')).textContent).toBe(status);
    // The seed is no person: an entry it brought says it is reference data.
    expect(dialog.textContent).toMatch(/Reference data loaded .*; last changed .* by catalogue/);
    expect(dialog.textContent).not.toMatch(/by seed/);
  });

  it('says an untouched entry of the reference data is that, in words, in both languages', async () => {
    const untouched = { ...ENTRIES[0]!, updatedBy: 'seed', version: 1 };
    for (const [language, words] of [
      ['en', /^Reference data, loaded 01\/01\/2020 .* \(version 1\)$/],
      ['fr', /^Données de référence, chargées le 01\/01\/2020 .* \(version 1\)$/],
    ] as const) {
      await changeLanguage(language);
      const { unmount } = render(
        <MantineProvider env="test">
          <CatalogFinder
            catalog={country}
            api={fakeApi([untouched]).api}
            language={language}
            translations={translations}
            canManage={false}
            validatorUrl={validatorUrl}
          />
        </MantineProvider>,
      );
      fireEvent.click(await screen.findByRole('cell', { name: 'Samoa' }));
      const dialog = await screen.findByRole('dialog');
      await within(dialog).findByTestId('entry-status');
      expect(within(dialog).getByText(words)).toBeTruthy();
      unmount();
    }
  });

  it('words the status in French', async () => {
    await changeLanguage('fr');
    renderFinder(fakeApi().api);
    fireEvent.click(await screen.findByRole('cell', { name: 'Tonga' }));
    const dialog = await screen.findByRole('dialog', { name: "Voir l'entrée" });
    expect((await within(dialog).findByTestId('entry-status')).textContent).toBe(
      'Statut : expirée',
    );
    expect(screen.getByRole('button', { name: 'Ouvrir' })).toBeTruthy();
  });
});

describe('catalogue texts in every language, and amounts', () => {
  it('shows a French reader the French name, and both names in the View dialog', async () => {
    await changeLanguage('fr');
    renderFinder(fakeApi().api, true, { language: 'fr' });
    // English where an entry has no French; French where it has.
    await screen.findByRole('cell', { name: 'Samoa' });
    fireEvent.click(screen.getByRole('cell', { name: 'Îles Quokka' }));
    expect(screen.queryByRole('cell', { name: 'Quokka Islands' })).toBeNull();
    const dialog = await screen.findByRole('dialog', { name: "Voir l'entrée" });
    const row = async (label: string) =>
      (await within(dialog).findByRole('rowheader', { name: label })).nextElementSibling
        ?.textContent;
    expect(await row('Nom (anglais)')).toBe('Quokka Islands');
    expect(await row('Nom (français)')).toBe('Îles Quokka');
  });

  it('says a name has no French, and takes it in the Edit dialog, English and French', async () => {
    const { api, put } = fakeApi();
    renderFinder(api);
    fireEvent.click(await screen.findByRole('cell', { name: 'Samoa' }));
    const view = await screen.findByRole('dialog', { name: 'View Entry' });
    const french = await within(view).findByRole('rowheader', { name: 'Name (French)' });
    expect(french.nextElementSibling?.textContent).toBe('None: the English text is shown');
    fireEvent.click(within(view).getByRole('button', { name: 'Edit' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Entry' });
    const english = within(edit).getByLabelText(/^Name \(English\)/) as HTMLInputElement;
    const inFrench = within(edit).getByLabelText('Name (French)') as HTMLInputElement;
    expect([english.value, inFrench.value]).toEqual(['Samoa', '']);
    expect(inFrench.getAttribute('lang')).toBe('fr');
    fireEvent.change(inFrench, { target: { value: 'État indépendant du Samoa' } });
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    const sent = (put.mock.calls[0] as unknown[])[2] as { data: object };
    expect(sent.data).toMatchObject({
      name: 'Samoa',
      i18n: { fr: { name: 'État indépendant du Samoa' } },
    });
  });

  it('exports a column per language of a translatable name, each as written', async () => {
    renderFinder(fakeApi().api);
    await screen.findByRole('cell', { name: 'Samoa' });
    const lines = (await exported()).replace(/^\ufeff/, '').split(/\r?\n/);
    expect(lines[0]).toBe('Code,Name (English),Name (French),Valid from,Valid until');
    expect(lines[3]).toMatch(/^QZ,Quokka Islands,Îles Quokka,/);
    expect(lines[1]).toMatch(/^WS,Samoa,,/);
  });

  it('writes an amount of money as the portal writes amounts, in each language', async () => {
    const fee = entry('e-fee', {
      documentCode: 'VIS',
      code: 'APP',
      name: 'Application fee',
      status: true,
      automatic: true,
      amount: 1250,
      i18n: { fr: { name: 'Frais de dossier' } },
    });
    renderFinder(fakeApi([fee]).api, false, { catalog: documentFee });
    expect(await screen.findByRole('cell', { name: 'NZD 1,250.00' })).toBeTruthy();
    cleanup();
    await changeLanguage('fr');
    renderFinder(fakeApi([fee]).api, false, { catalog: documentFee, language: 'fr' });
    expect(await screen.findByRole('cell', { name: '1\u202f250,00 NZD' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Frais de dossier' })).toBeTruthy();
  });
});

describe('validityStatus', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  it('reads the start as inclusive and the end as exclusive', () => {
    expect(validityStatus({ startTime: '2026-06-01T12:00:00Z' }, now)).toBe('valid');
    expect(validityStatus({ startTime: '2026-06-01T12:00:01Z' }, now)).toBe('notYetValid');
    expect(
      validityStatus({ startTime: '2020-01-01T00:00:00Z', endTime: '2026-06-01T12:00:00Z' }, now),
    ).toBe('expired');
    expect(
      validityStatus({ startTime: '2020-01-01T00:00:00Z', endTime: '2026-06-01T12:00:01Z' }, now),
    ).toBe('valid');
    expect(validityStatus({ startTime: '2020-01-01T00:00:00Z', endTime: null }, now)).toBe('valid');
  });
});
