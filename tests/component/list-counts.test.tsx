import fs from 'node:fs/promises';
import path from 'node:path';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { TextTree } from '../../src/core/i18n/translate';
import type { SearchRequest, SearchResult } from '../../src/core/search/protocol';
import { DocumentFinder } from '../../src/engine/documents/DocumentFinder';
import { changeLanguage, initI18n } from '../../src/portal/i18n';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

let visa: WorkflowDefinition;
let accounts: WorkflowDefinition;

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
  accounts = await readJson<WorkflowDefinition>('workflows/account.json');
  await initI18n({
    modules: [],
    catalogs: [],
    schemas: [],
    workflows: [visa, accounts],
    translations,
    version: 'test',
  });
});
/** A laptop's window: every column shown (the table asks about each column's media query). */
const matchMedia = window.matchMedia;
beforeEach(async () => {
  window.matchMedia = ((query: string) => ({
    ...matchMedia(query),
    matches: true,
  })) as typeof window.matchMedia;
  await changeLanguage('en');
});
afterEach(() => {
  window.matchMedia = matchMedia;
});

/** Ten rows of a page, ids unique to the page. */
const rows = (page: number) =>
  Array.from({ length: 10 }, (_, i) => ({
    id: `p${page}-${i}`,
    number: `VA-2026-${page}${i}`,
    status: 'GRANTED',
    updatedAt: '2026-11-20T10:00:00.000Z',
    fields: { familyName: `Name ${page}-${i}` },
  }));

/** A server past its count limit: every page says "more than 10,000" and gives the next cursor. */
function beyondTheLimit() {
  const search = vi.fn(
    async (_backend: string, _path: string, request: SearchRequest) =>
      [
        null,
        {
          items: rows(request.options?.page ?? 1),
          total: 10000,
          totalIsLowerBound: true,
          page: request.options?.page ?? 1,
          itemsPerPage: 10,
          capped: false,
          nextCursor: `after-page-${request.options?.page ?? 1}`,
        },
      ] as ApiResult<SearchResult<unknown>>,
  );
  return { api: { search, get: vi.fn() } as unknown as ApiClient, search };
}

async function renderFinder(api: ApiClient) {
  const list = visa.lists.find((l) => l.id === 'granted')!;
  await act(async () => {
    render(
      <MantineProvider env="test">
        <DocumentFinder workflow={visa} list={list} api={api} onOpen={vi.fn()} />
      </MantineProvider>,
    );
  });
}

describe('a finder past the count limit', () => {
  it('says "more than 10,000" in words, in English and French, above the table and in the pager', async () => {
    const { api } = beyondTheLimit();
    await renderFinder(api);
    expect(screen.getByTestId('table-count').textContent).toBe('More than 10,000 documents');
    expect(screen.getByText('1 - 10 / more than 10,000')).toBeTruthy();
    await act(() => changeLanguage('fr'));
    // French groups thousands with a (narrow) no-break space.
    expect(screen.getByTestId('table-count').textContent).toMatch(/^Plus de 10\s000 documents$/u);
    expect(screen.getByText(/^1 - 10 \/ plus de 10\s000$/u)).toBeTruthy();
  });

  it('moves to the next page with the cursor the last answer gave', async () => {
    const { api, search } = beyondTheLimit();
    await renderFinder(api);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Next page' })));
    const second = search.mock.calls.at(-1)![2];
    expect(second.options).toMatchObject({ page: 2, cursor: 'after-page-1' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Next page' })));
    expect(search.mock.calls.at(-1)![2].options).toMatchObject({
      page: 3,
      cursor: 'after-page-2',
    });
    // A page jumped to is asked by its number: no cursor leads there.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '5' })));
    const jumped = search.mock.calls.at(-1)![2].options;
    expect(jumped?.page).toBe(5);
    expect(jumped?.cursor).toBeUndefined();
    // Another sort starts over from page 1, and forgets the cursors of the old order.
    const header = [...document.querySelectorAll('thead th')].find(
      (th) => th.textContent?.trim() === 'Family name',
    )!;
    await act(async () => fireEvent.click(header.querySelector('[role="button"]') ?? header));
    const resorted = search.mock.calls.at(-1)![2].options;
    expect(resorted).toMatchObject({ page: 1, sort: [{ field: 'familyName' }] });
    expect(resorted?.cursor).toBeUndefined();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Next page' })));
    expect(search.mock.calls.at(-1)![2].options).toMatchObject({
      page: 2,
      cursor: 'after-page-1',
    });
  });
});

describe('a finder counting what its workflow calls its documents', () => {
  it('counts accounts as accounts, in English and French, and past the limit too', async () => {
    const answer = (total: number, more: boolean) =>
      vi.fn(
        async () =>
          [
            null,
            {
              items: [],
              total,
              totalIsLowerBound: more,
              page: 1,
              itemsPerPage: 10,
              capped: false,
            },
          ] as ApiResult<SearchResult<unknown>>,
      );
    const list = accounts.lists.find((l) => l.id === 'pending')!;
    const show = async (search: ReturnType<typeof answer>) => {
      await act(async () => {
        render(
          <MantineProvider env="test">
            <DocumentFinder
              workflow={accounts}
              list={list}
              api={{ search, get: vi.fn() } as unknown as ApiClient}
              onOpen={vi.fn()}
            />
          </MantineProvider>,
        );
      });
      return screen.getByTestId('table-count');
    };
    const two = await show(answer(2, false));
    expect(two.textContent).toBe('2 accounts');
    await act(() => changeLanguage('fr'));
    expect(two.textContent).toBe('2 comptes');
    await act(() => changeLanguage('en'));
    cleanup();
    const many = await show(answer(10000, true));
    expect(many.textContent).toBe('More than 10,000 accounts');
  });
});
