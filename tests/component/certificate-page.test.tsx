// A certificate as a web page: a spinner while it loads, a clear refusal for a document not
// issued or not found, and once here a document a screen reader reads as one: its title, a
// heading per section, labels and values in a description list, a list's items numbered, a
// table with column headers and a caption, the article in the holder's language.
import { render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { CertificateView } from '../../src/core/documents/certificate-view';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage } from '../../src/portal/i18n';
import { CertificatePage } from '../../src/portal/pages/certificate/CertificatePage';
import { signedOutSession } from '../../src/portal/session';
import { initPortalTexts } from './portal-texts';

beforeAll(() => initPortalTexts());
afterEach(async () => {
  await changeLanguage('en');
});

const ID = '6f1c7a8e-2f2b-4f0e-9a57-1d1a0c2b3e4f';
const WORKFLOW = { id: 'test-permit', backend: 'evisa' } as unknown as WorkflowDefinition;

const VIEW: CertificateView = {
  language: 'fr',
  issuer: "Service de l'immigration",
  title: 'Permis électronique',
  number: 'TP-2026-000007',
  sections: [
    {
      heading: 'Titulaire',
      fields: [
        { label: 'Nom de famille', value: 'Tui' },
        { label: 'Adresse', lines: ['1 Beach Road', 'Apia'] },
      ],
    },
    {
      heading: 'Conditions',
      fields: [
        { label: 'Conditions de ce permis', lines: ['Une', 'Deux'], numbered: true },
        {
          label: '',
          table: {
            columns: ['Numéro', 'Montant'],
            rows: [['VA-1', '10,00 NZD']],
            alignRight: [false, true],
          },
        },
      ],
    },
  ],
  checkUrl: 'https://portal.example/#/home?number=TP-2026-000007',
  checkText: 'Toute personne peut vérifier ce document à cette adresse :',
  notes: ['Ce document a été émis par voie électronique et ne nécessite aucune signature.'],
};

function renderPage(answer: Promise<ApiResult<CertificateView>>, entry = `/c/${ID}`) {
  const get = vi.fn(() => answer);
  const api = { get } as unknown as ApiClient;
  render(
    <MantineProvider env="test">
      <PortalContext.Provider
        value={{ bundle: {} as DefinitionBundle, session: signedOutSession(vi.fn()), api }}
      >
        <MemoryRouter initialEntries={[entry]}>
          <Routes>
            <Route path="/c/:id" element={<CertificatePage workflow={WORKFLOW} />} />
            <Route path="/c/:id/:number" element={<CertificatePage workflow={WORKFLOW} />} />
          </Routes>
        </MemoryRouter>
      </PortalContext.Provider>
    </MantineProvider>,
  );
  return get;
}

describe('a certificate as a web page', () => {
  it('reads as one document in its holder’s language, its buttons in the reader’s', async () => {
    const get = renderPage(Promise.resolve([null, VIEW]));
    const title = await screen.findByRole('heading', {
      level: 2,
      name: 'Permis électronique TP-2026-000007',
    });
    expect(get).toHaveBeenCalledWith('evisa', `/test-permit/${ID}/certificate/view`);
    const article = title.closest('article')!;
    expect(article.getAttribute('lang')).toBe('fr');
    expect(
      within(article)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Titulaire', 'Conditions']);
    const terms = [...article.querySelectorAll('dl dt')].map((dt) => dt.textContent);
    expect(terms).toEqual(['Nom de famille', 'Adresse', 'Conditions de ce permis']);
    expect(article.querySelector('dl dd')?.textContent).toBe('Tui');
    expect(
      within(article)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Une', 'Deux']);
    // The table has its headers and is named by its section's heading.
    const table = within(article).getByRole('table', { name: 'Conditions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Numéro', 'Montant']);
    expect(within(article).getByRole('link').getAttribute('href')).toBe(VIEW.checkUrl);
    // The reader's language (English) for what is the page's own.
    expect(screen.getByRole('button', { name: 'Print' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download the PDF' })).toBeTruthy();
  });

  it('asks for a dependant’s certificate by its number', async () => {
    const get = renderPage(Promise.resolve([null, VIEW]), `/c/${ID}/TP-2026-000008`);
    await screen.findByRole('article');
    expect(get).toHaveBeenCalledWith('evisa', `/test-permit/${ID}/certificate/view/TP-2026-000008`);
  });

  it('says it is loading, then why it cannot be shown, in French too', async () => {
    await changeLanguage('fr');
    let answer: (result: ApiResult<CertificateView>) => void = () => undefined;
    renderPage(new Promise((resolve) => (answer = resolve)));
    expect(screen.getByRole('status', { name: 'Chargement du document' })).toBeTruthy();
    answer([{ status: 409, code: 'ACTION_NOT_ALLOWED', message: 'server text' }, null]);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain("Ce document n'a pas été délivré");
    expect(screen.queryByRole('article')).toBeNull();
  });

  it('says a document not found is not found, without telling whose it is', async () => {
    renderPage(Promise.resolve([{ status: 404, code: 'NOT_FOUND', message: 'x' }, null]));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This document was not found, or it is not yours to see.');
  });
});
