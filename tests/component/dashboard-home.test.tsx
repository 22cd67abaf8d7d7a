// The dashboard's statistics (DashboardHomePage) as each user meets them: those of the document
// types the user works with, not every type that declares statistics.
import fs from 'node:fs/promises';
import path from 'node:path';
import { render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/core/api/client';
import { NAVIGATION_TEXTS } from '../../src/core/definitions/parts';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { TextTree } from '../../src/core/i18n/translate';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage, initI18n } from '../../src/portal/i18n';
import { DashboardHomePage } from '../../src/portal/pages/DashboardHomePage';
import { signedInSession, type Session } from '../../src/portal/session';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

const TYPES = ['visa-application', 'sponsor-application'] as const;
let bundle: DefinitionBundle;

beforeAll(async () => {
  const workflows = await Promise.all(
    TYPES.map((type) => readJson<WorkflowDefinition>(`workflows/${type}.json`)),
  );
  const translations = {} as DefinitionBundle['translations'];
  for (const language of ['en', 'fr'] as const) {
    translations[language] = await readJson<TextTree>(`translations/${language}.json`);
    // Only what the portal's index carries of a document's texts: the dashboard has no part.
    for (const type of TYPES) {
      const own = await readJson<TextTree>(`translations/${language}/${type}.json`);
      translations[language][type] = Object.fromEntries(
        NAVIGATION_TEXTS.flatMap((key) => (own[key] === undefined ? [] : [[key, own[key]]])),
      );
    }
  }
  bundle = { modules: [], catalogs: [], workflows, schemas: [], translations, version: 'test' };
  await initI18n(bundle);
});

function userWith(roles: string[]): Session {
  return signedInSession(
    { sub: 'user-1', groups: ['view-profile', ...roles].map((role) => `/${role}`), name: 'Ana' },
    { token: async () => 'token', login: vi.fn(), logout: vi.fn() },
  );
}

const STATISTICS = {
  year: 2026,
  byStatus: [
    { status: 'GRANTED', count: 1200 },
    { status: 'SUBMITTED', count: 300 },
  ],
  months: ['06', '07', '08', '09', '10', '11'].map((m, i) => ({ month: `2026-${m}`, count: i })),
};

/** Answers every statistics call; the dashboard's other areas get an error, shown in words. */
function dashboardApi() {
  const get = vi.fn((_backend: string, url: string) =>
    Promise.resolve(url.startsWith('/statistics/') ? [null, STATISTICS] : [{ status: 500 }, null]),
  );
  return { get, api: { get, patch: get } as unknown as ApiClient };
}

function renderDashboard(session: Session, api: ApiClient) {
  return render(
    <MantineProvider env="test">
      <PortalContext.Provider value={{ bundle, session, api }}>
        <MemoryRouter initialEntries={['/dashboard/home']}>
          <DashboardHomePage />
        </MemoryRouter>
      </PortalContext.Provider>
    </MantineProvider>,
  );
}

describe('dashboard statistics', () => {
  it("shows an applicant their visa applications' statistics, not sponsorships'", async () => {
    const { api, get } = dashboardApi();
    renderDashboard(userWith(['visa-application-submit', 'visa-application-create']), api);
    expect(await screen.findByText('Statistics: Visa application')).toBeTruthy();
    expect(get).toHaveBeenCalledWith('evisa', '/statistics/visa-application');
    expect(get).not.toHaveBeenCalledWith('evisa', '/statistics/sponsor-application');
    expect(screen.queryByText('Statistics: Sponsor application')).toBeNull();
  });

  it('adds no style element to the page as its figures arrive', async () => {
    // A style element added to the page restyles the whole document: on a phone, tens of
    // milliseconds of main thread as the figures arrive (Mantine's responsive props add one).
    const { api } = dashboardApi();
    renderDashboard(userWith(['visa-application-search']), api);
    const statistics = await screen.findByRole('region', { name: 'Statistics: Visa application' });
    await within(statistics).findAllByRole('table');
    expect(statistics.querySelectorAll('style')).toHaveLength(0);
  });

  it('shows an officer of both types both, and someone of neither none', async () => {
    const both = dashboardApi();
    const view = renderDashboard(
      userWith(['visa-application-search', 'sponsor-application-search']),
      both.api,
    );
    expect(await screen.findByText('Statistics: Visa application')).toBeTruthy();
    expect(await screen.findByText('Statistics: Sponsor application')).toBeTruthy();
    view.unmount();

    const neither = dashboardApi();
    renderDashboard(userWith(['connectid-account-search']), neither.api);
    await waitFor(() => expect(neither.get).toHaveBeenCalled());
    expect(neither.get.mock.calls.some(([, url]) => url.startsWith('/statistics/'))).toBe(false);
  });
});

/** Each row of a table as its cells' text, and the width of the row's bar ('' without one). */
function rowsOf(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [
      ...[...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''),
      row.querySelector<HTMLElement>('.portal-count-bar')?.style.width ?? '',
    ]);
}

describe('dashboard statistics figures', () => {
  it('reads each count in words and numbers, with a bar as long as it is against the largest', async () => {
    await changeLanguage('en');
    const { api } = dashboardApi();
    renderDashboard(userWith(['visa-application-search']), api);
    const byStatus = await screen.findByRole('table', {
      name: 'Visa application in 2026, by status',
    });
    expect(
      within(byStatus)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Status', 'Applications']);
    expect(rowsOf(byStatus)).toEqual([
      ['Granted', '1,200', '100%'],
      ['Submitted', '300', '25%'],
    ]);
    const months = screen.getByRole('table', { name: 'Visa application in the last 6 months' });
    expect(rowsOf(months)).toEqual([
      ['Jun 2026', '0', ''],
      ['Jul 2026', '1', '20%'],
      ['Aug 2026', '2', '40%'],
      ['Sep 2026', '3', '60%'],
      ['Oct 2026', '4', '80%'],
      ['Nov 2026', '5', '100%'],
    ]);
    // The bars are pictures of the figures beside them: nothing for a screen reader to read.
    for (const bar of months.querySelectorAll('.portal-count-track'))
      expect(bar.getAttribute('aria-hidden')).toBe('true');
  });

  it('writes the statistics in French', async () => {
    await changeLanguage('fr');
    try {
      const { api } = dashboardApi();
      renderDashboard(userWith(['visa-application-search']), api);
      const byStatus = await screen.findByRole('table', {
        name: 'Demande de visa en 2026, par statut',
      });
      expect(
        within(byStatus)
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual(['Statut', 'Demandes']);
      // French groups thousands with a narrow no-break space.
      expect(rowsOf(byStatus)[0]?.slice(0, 2)).toEqual(['Accordé', '1\u202f200']);
      const months = screen.getByRole('table', {
        name: 'Demande de visa au cours des 6 derniers mois',
      });
      expect(rowsOf(months).map(([month]) => month)).toEqual([
        'juin 2026',
        'juil. 2026',
        'août 2026',
        'sept. 2026',
        'oct. 2026',
        'nov. 2026',
      ]);
    } finally {
      await changeLanguage('en');
    }
  });
});

describe('dashboard lists', () => {
  it("names each list by what it lists, away from its module's menu folder", async () => {
    // The verification officer of the demo: visa and sponsor lists side by side.
    const verifier = userWith([
      ...['search', 'submitted', 'assign', 'forward'].map((r) => `visa-application-${r}`),
      ...['search', 'submitted', 'grant', 'query', 'reject'].map((r) => `sponsor-application-${r}`),
    ]);
    for (const [language, expected] of [
      [
        'en',
        [
          'Find visa applications',
          'Submitted visa applications',
          'Visa applications assigned to me',
          'Visa applications for assignment',
          'Assigned visa applications',
          'Find Sponsor Applications',
          'Find Submitted Sponsor Applications',
          'Sponsor Applications to Verify',
        ],
      ],
      [
        'fr',
        [
          'Rechercher des demandes de visa',
          'Demandes de visa soumises',
          'Demandes de visa qui me sont attribuées',
          'Demandes de visa à attribuer',
          'Demandes de visa attribuées',
          'Rechercher des demandes de parrainage',
          'Rechercher les demandes de parrainage soumises',
          'Demandes de parrainage à vérifier',
        ],
      ],
    ] as const) {
      await changeLanguage(language);
      const view = renderDashboard(verifier, dashboardApi().api);
      const lists = await screen.findByRole('navigation', { name: 'Documents' });
      expect(
        within(lists)
          .getAllByRole('link')
          .map((link) => link.textContent),
      ).toEqual(expected);
      expect(within(lists).getByRole('link', { name: expected[7] }).getAttribute('href')).toBe(
        '/sponsor/application/verificationlist',
      );
      view.unmount();
    }
    await changeLanguage('en');
  });
});
