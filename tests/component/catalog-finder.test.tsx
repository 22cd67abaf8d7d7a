// A catalogue's search page as its users meet it: Finder shows and hides the filter bar, Open
// opens the selected row's entry to edit (to view, for a reader), the View Entry dialog says
// whether the entry is valid now, and the Country's alpha-3 and numeric codes are kept out of
// sight (finder, filter, dialogs) while an edit sends them back unchanged.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { CatalogEntryRecord } from '../../src/core/definitions/catalog-entry';
import type { CatalogDefinition, DefinitionBundle } from '../../src/core/definitions/types';
import type { TextTree } from '../../src/core/i18n/translate';
import type { SearchResult } from '../../src/core/search/protocol';
import { CatalogFinder } from '../../src/engine/CatalogFinder';
import { validityStatus } from '../../src/engine/catalog-fields';
import { changeLanguage, initI18n } from '../../src/portal/i18n';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

let country: CatalogDefinition;
let translations: DefinitionBundle['translations'];
/** A validator module that accepts everything: the server's own is tested with the API. */
const validatorDir = path.join(root, 'node_modules/.cache/catalog-finder-test');
const validatorUrl = path.join(validatorDir, 'accept.mjs');

beforeAll(async () => {
  country = await readJson<CatalogDefinition>('catalogs/country.json');
  translations = {} as DefinitionBundle['translations'];
  for (const language of ['en', 'fr'] as const)
    translations[language] = await readJson<TextTree>(`translations/${language}.json`);
  await initI18n({
    modules: [],
    catalogs: [country],
    workflows: [],
    schemas: [],
    translations,
    version: 'test',
  });
  await fs.mkdir(validatorDir, { recursive: true });
  await fs.writeFile(validatorUrl, 'export default function validate() { return true; }\n');
});

afterAll(async () => fs.rm(validatorDir, { recursive: true, force: true }));

// A laptop's window: every column shown (columns without a media query are asked about too).
const matchMedia = window.matchMedia;
beforeEach(() => {
  window.matchMedia = ((query: string) => ({
    ...matchMedia(query),
    matches: true,
  })) as typeof window.matchMedia;
});
afterEach(async () => {
  window.matchMedia = matchMedia;
  await changeLanguage('en');
});

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
  entry('e-qz', { code: 'QZ', name: 'Quokka Islands', startTime: iso(30 * DAY) }),
];

function fakeApi() {
  const search = vi.fn((): Promise<ApiResult<SearchResult<CatalogEntryRecord>>> =>
    Promise.resolve([
      null,
      { items: ENTRIES, total: ENTRIES.length, page: 1, itemsPerPage: 10, capped: false },
    ]),
  );
  const get = vi.fn((_backend: string, address: string) =>
    Promise.resolve([null, ENTRIES.find((e) => address.endsWith(`/${e.id}`))]),
  );
  const put = vi.fn(() => Promise.resolve([null, {}]));
  return { search, get, put, api: { search, get, put } as unknown as ApiClient };
}

function renderFinder(api: ApiClient, canManage = true) {
  render(
    <MantineProvider env="test">
      <CatalogFinder
        catalog={country}
        api={api}
        language="en"
        translations={translations}
        canManage={canManage}
        validatorUrl={validatorUrl}
        allCatalogs={[country]}
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

  it('opens the selected row to edit, and the edit keeps the codes it does not show', async () => {
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

    fireEvent.change(within(dialog).getByLabelText(/^Name/), {
      target: { value: 'Independent State of Samoa' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put).toHaveBeenCalledWith('catalog', '/country/e-ws', {
      version: 3,
      data: expect.objectContaining({
        code: 'WS',
        name: 'Independent State of Samoa',
        alpha3Code: 'WSM',
        numericCode: 882,
      }) as unknown,
    });
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
    expect(dialog.textContent).toMatch(/Created .* by seed; last changed .* by catalogue/);
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
