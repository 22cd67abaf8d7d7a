// The audit screen (docs/audit.md) as an auditor meets it: the filters the address names asked
// for, a loading state, then a table of lines in words (kind, what, who, the document, through
// which screen), the next page on demand, new filters asked for on submit; French words too; and
// a document's audit panel listing that document's lines with a link to the screen.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { AuditLine } from '../../src/core/audit/lines';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage } from '../../src/portal/i18n';
import { AuditPage } from '../../src/portal/pages/AuditPage';
import { AuditPanel } from '../../src/portal/pages/document/AuditPanel';
import { signedInSession } from '../../src/portal/session';
import { initPortalTexts } from './portal-texts';

const READ: AuditLine = {
  id: 'event-2',
  at: '2026-11-29T10:15:00.000000Z',
  kind: 'read',
  action: 'upload.read',
  actor: 'officer-1',
  actorName: 'Vera Officer',
  documentId: 'd1',
  documentType: 'visa-application',
  documentNumber: 'VA-2026-000042',
  target: 'm1',
  route: 'GET /api/media/:id',
  screen: '/visa/applications/:id',
  addressClass: 'local',
  detail: { name: 'passport.pdf', type: 'application/pdf' },
};
const CHANGE: AuditLine = {
  ...READ,
  id: 'change-1',
  at: '2026-11-29T09:00:00.000000Z',
  kind: 'change',
  action: 'document.change',
  actor: 'applicant-1',
  actorName: 'Ana Tui',
  target: null,
  route: null,
  screen: null,
  addressClass: null,
  detail: { action: 'submit', fromStatus: 'NEW', toStatus: 'SUBMITTED' },
};

beforeAll(async () => {
  await initPortalTexts(['audit']);
});

function renderWith(
  node: React.ReactNode,
  answer: (path: string) => Promise<ApiResult<unknown>>,
  entry = '/audit?document=VA-2026-000042',
) {
  const get = vi.fn(async (_backend: string, path: string) => answer(path));
  const session = signedInSession(
    { sub: 'auditor-1', groups: ['/audit-read'], name: 'Tavita Auditor' },
    { token: async () => 'token', login: vi.fn(), logout: vi.fn() },
  );
  render(
    <MantineProvider env="test">
      <MemoryRouter initialEntries={[entry]}>
        <PortalContext.Provider
          value={{
            bundle: { workflows: [] } as unknown as DefinitionBundle,
            session,
            api: { get } as unknown as ApiClient,
          }}
        >
          {node}
        </PortalContext.Provider>
      </MemoryRouter>
    </MantineProvider>,
  );
  return get;
}

const cellsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('the audit screen', () => {
  it('shows the lines the address filters in words, page after page, and asks again on submit', async () => {
    await changeLanguage('en');
    let release: (value: ApiResult<unknown>) => void = () => undefined;
    const get = renderWith(<AuditPage />, (path) =>
      path.includes('cursor=')
        ? Promise.resolve([null, { items: [CHANGE] }] as ApiResult<unknown>)
        : new Promise((resolve) => (release = resolve)),
    );
    expect(get).toHaveBeenCalledWith('system', '/audit/events?document=VA-2026-000042&limit=50');
    expect(screen.getByRole('heading', { name: 'Audit trail' })).toBeDefined();
    expect(screen.getByRole('status', { name: 'Loading audit lines' })).toBeDefined();
    expect((screen.getByLabelText(/^Document/) as HTMLInputElement).value).toBe('VA-2026-000042');
    await act(async () => release([null, { items: [READ], next: 'c1' }] as ApiResult<unknown>));
    const table = await screen.findByRole('table', { name: 'Audit lines, newest first' });
    const [head, row] = cellsOf(table);
    expect(head).toEqual(['When', 'Kind', 'What', 'Who', 'Document', 'Through']);
    expect(row?.slice(1)).toEqual([
      'Read',
      'Downloaded an uploadFile passport.pdf',
      'Vera Officer',
      'VA-2026-000042',
      'screen /visa/applications/:idAPI GET /api/media/:idlocal network',
    ]);
    expect(screen.getByText('1 line shown')).toBeDefined();

    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(get).toHaveBeenLastCalledWith(
      'system',
      '/audit/events?document=VA-2026-000042&limit=50&cursor=c1',
    );
    expect(await within(table).findByText('Changed a document')).toBeDefined();
    expect(screen.getByText('2 lines shown')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();

    await userEvent.type(screen.getByLabelText(/^Person/), 'vera');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(get).toHaveBeenLastCalledWith(
      'system',
      '/audit/events?person=vera&document=VA-2026-000042&limit=50',
    );
  });

  it('says the kinds and actions in French', async () => {
    await changeLanguage('fr');
    renderWith(<AuditPage />, async () => [null, { items: [READ] }] as ApiResult<unknown>);
    const table = await screen.findByRole('table');
    expect(cellsOf(table)[1]?.slice(1, 3)).toEqual([
      'Lecture',
      'A téléchargé une pièce jointeFichier passport.pdf',
    ]);
    await changeLanguage('en');
  });

  it("lists a document's lines in its panel, with a link to all of them", async () => {
    await changeLanguage('en');
    const get = renderWith(
      <AuditPanel documentId="d1" />,
      async () => [null, { items: [READ, CHANGE] }] as ApiResult<unknown>,
    );
    expect(get).toHaveBeenCalledWith('system', '/audit/events?document=d1&limit=20');
    const table = await screen.findByRole('table');
    expect(cellsOf(table)[0]).toEqual(['When', 'Kind', 'What', 'Who', 'Through']);
    expect(cellsOf(table)[2]?.[2]).toBe('Changed a documentNew → Submitted');
    expect(
      screen.getByRole('link', { name: 'Open in the audit screen' }).getAttribute('href'),
    ).toBe('/audit?document=d1');
  });
});
