import fs from 'node:fs/promises';
import path from 'node:path';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { TextTree } from '../../src/core/i18n/translate';
import type { SearchResult } from '../../src/core/search/protocol';
import { DocumentFinder } from '../../src/engine/documents/DocumentFinder';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage, initI18n } from '../../src/portal/i18n';
import { DashboardDocuments } from '../../src/portal/pages/dashboard/DashboardDocuments';
import { signedInSession, type Session } from '../../src/portal/session';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

let bundle: DefinitionBundle;
let visa: WorkflowDefinition;
let account: WorkflowDefinition;

beforeAll(async () => {
  const translations = {} as DefinitionBundle['translations'];
  for (const language of ['en', 'fr'] as const) {
    const tree = await readJson<TextTree>(`translations/${language}.json`);
    for (const file of await fs.readdir(path.join(root, 'translations', language)))
      tree[file.replace(/\.json$/, '')] = await readJson<TextTree>(
        `translations/${language}/${file}`,
      );
    translations[language] = tree;
  }
  visa = await readJson<WorkflowDefinition>('workflows/visa-application.json');
  account = await readJson<WorkflowDefinition>('workflows/account.json');
  bundle = {
    modules: [],
    catalogs: [],
    schemas: [],
    workflows: [visa, account],
    translations,
    version: 'test',
  };
  await initI18n(bundle);
});

/** Whether the window is as wide as a laptop's (every column) or a phone's. */
let wide = true;
const matchMedia = window.matchMedia;
beforeEach(async () => {
  wide = true;
  window.matchMedia = ((query: string) => ({
    ...matchMedia(query),
    // Columns without a media query are asked about too (always shown).
    matches: query.includes('min-width') ? wide : true,
  })) as typeof window.matchMedia;
  await changeLanguage('en');
});
afterEach(() => {
  window.matchMedia = matchMedia;
});

/** A search the test answers when it chooses: the finder's state while it waits is visible. */
function pendingSearch() {
  let answer: (result: ApiResult<SearchResult<unknown>>) => void = () => undefined;
  const search = vi.fn(
    () =>
      new Promise<ApiResult<SearchResult<unknown>>>((resolve) => {
        answer = resolve;
      }),
  );
  const api = { search, get: vi.fn() } as unknown as ApiClient;
  return {
    api,
    search,
    answer: async (items: unknown[]) => {
      await act(async () =>
        answer([null, { items, total: items.length, page: 1, itemsPerPage: 10, capped: false }]),
      );
    },
  };
}

function session(roles: string[]): Session {
  return signedInSession(
    { groups: roles.map((role) => `/${role}`), name: 'Ana', preferred_username: 'ana' },
    { token: async () => 'token', login: vi.fn(), logout: vi.fn() },
  );
}

function renderWithPortal(node: React.ReactNode, api: ApiClient, roles: string[]) {
  return render(
    <MantineProvider env="test">
      <PortalContext.Provider value={{ bundle, session: session(roles), api }}>
        <MemoryRouter initialEntries={['/dashboard/home']}>{node}</MemoryRouter>
      </PortalContext.Provider>
    </MantineProvider>,
  );
}

const summary = (fields: Record<string, unknown>, status = 'SUBMITTED FOR VERIFICATION') => ({
  id: 'd1',
  number: 'VA-2026-00001',
  status,
  updatedAt: '2026-11-20T10:00:00.000Z',
  fields,
});

/** The column headers shown (sortable ones are buttons, so read the cells themselves). */
const headers = () => [...document.querySelectorAll('thead th')].map((h) => h.textContent?.trim());

describe('document finders', () => {
  it('heads the visa list with field labels, in English and French, never an i18next error', async () => {
    const { api, answer } = pendingSearch();
    const list = visa.lists.find((l) => l.id === 'assignable')!;
    renderWithPortal(
      <DocumentFinder workflow={visa} list={list} api={api} onOpen={vi.fn()} />,
      api,
      [],
    );
    // A case screening flagged carries the badge in the column the list declares.
    await answer([
      { ...summary({ familyName: 'Tuilagi', givenName: 'Sione' }), screeningHit: true },
    ]);
    expect(headers()).toEqual([
      'Number',
      'Family name',
      'Given name',
      'Status',
      'Screening hit',
      'Updated at',
      'Open',
    ]);
    expect(screen.getByTestId('screening-hit').textContent).toBe('Screening hit');
    // A list declaring no name search has no name box.
    expect(screen.queryByRole('search')).toBeNull();
    await act(() => changeLanguage('fr'));
    expect(headers().join(' | ')).not.toMatch(/returned an object|visa-application\./);
    expect(headers()).toContain('Nom de famille');
  });

  it("searches the list's names from its box, from the first page, and says the closest come first", async () => {
    const { api, search, answer } = pendingSearch();
    const find = visa.lists.find((l) => l.id === 'find')!;
    renderWithPortal(
      <DocumentFinder workflow={visa} list={find} api={api} onOpen={vi.fn()} />,
      api,
      [],
    );
    await answer([summary({ familyName: 'Turner' })]);
    const sortedHeaders = () =>
      [...document.querySelectorAll('thead th')]
        .filter((h) => h.querySelector('.mantine-datatable-header-cell-sortable-icon'))
        .map((h) => h.textContent?.trim());
    expect(sortedHeaders()).toEqual(['Updated at']);
    const box = screen.getByRole('textbox', { name: 'Search by name' });
    await act(async () => {
      fireEvent.change(box, { target: { value: '  Faʻamausili ' } });
      fireEvent.submit(screen.getByRole('search', { name: 'Search by name' }));
    });
    await answer([summary({ familyName: 'Faamausili' })]);
    const lastBody = () => (search.mock.calls.at(-1) as unknown[] | undefined)?.[2];
    const body = lastBody() as Record<string, unknown>;
    expect(body).toMatchObject({ list: 'find', name: 'Faʻamausili', options: { page: 1 } });
    expect(screen.getByText('Names closest to “Faʻamausili” first')).toBeTruthy();
    // Closest first: no column claims the order.
    expect(sortedHeaders()).toEqual([]);
    // Clearing the name searches without it.
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear the name' }));
    });
    await answer([]);
    expect(lastBody()).not.toHaveProperty('name');
  });

  it('shows a loading state, not "0 documents / No results", until the first answer', async () => {
    const { api, answer } = pendingSearch();
    renderWithPortal(
      <DocumentFinder workflow={visa} list={visa.lists[0]!} api={api} onOpen={vi.fn()} />,
      api,
      [],
    );
    expect(screen.getByTestId('table-count').textContent).toBe('Loading documents…');
    expect(screen.queryByText('No results found')).toBeNull();
    expect(screen.queryByText(/^0 documents$/)).toBeNull();
    await answer([summary({ familyName: 'Tuilagi' })]);
    // One is singular (i18next plurals): "1 document", never "1 documents".
    expect(screen.getByTestId('table-count').textContent).toBe('1 document');
    await act(() => changeLanguage('fr'));
    expect(screen.getByTestId('table-count').textContent).toBe('1 document');
  });

  it('shows statuses and enumeration values as words (activation "active" is Active / Actif)', async () => {
    const { api, answer } = pendingSearch();
    renderWithPortal(
      <DocumentFinder workflow={account} list={account.lists[0]!} api={api} onOpen={vi.fn()} />,
      api,
      [],
    );
    await answer([summary({ loginIdentifier: 'ana', activationStatus: 'active' }, 'ACCEPTED')]);
    const row = screen.getAllByRole('row')[1]!;
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByText('Accepted')).toBeTruthy();
    expect(within(row).queryByText('active')).toBeNull();
    await act(() => changeLanguage('fr'));
    expect(within(screen.getAllByRole('row')[1]!).getByText('Actif')).toBeTruthy();
  });

  it('shows an amount column as the language writes money (NZD 1,234.50 / 1 234,50 NZD)', async () => {
    const invoice = await readJson<WorkflowDefinition>('workflows/payment-invoice.json');
    const { api, answer } = pendingSearch();
    renderWithPortal(
      <DocumentFinder workflow={invoice} list={invoice.lists[0]!} api={api} onOpen={vi.fn()} />,
      api,
      [],
    );
    await answer([summary({ name: 'Mele Agent', total: '1234.50' }, 'CREATED')]);
    expect(within(screen.getAllByRole('row')[1]!).getByText('NZD 1,234.50')).toBeTruthy();
    await act(() => changeLanguage('fr'));
    expect(within(screen.getAllByRole('row')[1]!).getByText(/^1.234,50 NZD$/)).toBeTruthy();
  });

  it('keeps what the row is, its status and Open on a phone, hiding the other columns', async () => {
    wide = false;
    const { api, answer } = pendingSearch();
    renderWithPortal(
      <DocumentFinder workflow={visa} list={visa.lists[0]!} api={api} onOpen={vi.fn()} />,
      api,
      [],
    );
    await answer([summary({ familyName: 'Tuilagi', givenName: 'Sione' })]);
    expect(headers()).toEqual(['Number', 'Status', 'Open']);
  });
});

describe('dashboard lists', () => {
  const APPLICANT = ['visa-application-submit', 'visa-application-read', 'view-profile'];

  it('gives every My Library row a real link, reachable by keyboard', async () => {
    const { api, answer } = pendingSearch();
    renderWithPortal(<DashboardDocuments endpoint="/dashboard/library" />, api, APPLICANT);
    expect(screen.getByTestId('table-count').textContent).toBe('Loading documents…');
    await answer([
      {
        workflow: 'visa-application',
        documentType: 'visa-application',
        id: 'd1',
        number: 'VA-2026-00001',
        reference: null,
        status: 'STORED',
        updatedAt: '2026-11-20T10:00:00.000Z',
        submittedAt: null,
      },
    ]);
    const link = screen.getByRole('link', { name: 'Open VA-2026-00001' });
    expect(link.getAttribute('href')).toBe('/visa/application/view/d1');
    expect(within(screen.getAllByRole('row')[1]!).getByText('Stored')).toBeTruthy();
  });

  it("opens an owner's task (a query to answer) on the reply screen", async () => {
    const { api, answer } = pendingSearch();
    renderWithPortal(<DashboardDocuments endpoint="/dashboard/tasks" withReason />, api, APPLICANT);
    await answer([
      {
        workflow: 'visa-application',
        documentType: 'visa-application',
        id: 'd2',
        number: 'VA-2026-00002',
        reference: null,
        status: 'QUERIED',
        updatedAt: '2026-11-20T10:00:00.000Z',
        submittedAt: '2026-11-19T10:00:00.000Z',
        assignee: 'officer-1',
        reason: 'owner',
        list: null,
      },
    ]);
    const link = screen.getByRole('link', { name: 'Open VA-2026-00002' });
    expect(link.getAttribute('href')).toBe('/visa/application/replytoquery/d2');
    expect(screen.getByText('Waiting for you')).toBeTruthy();
  });
});
