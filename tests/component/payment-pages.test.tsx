// The payment pages (PaymentScreenPage) once the payer is back from the gateway: the paid page,
// the receipt and a failed payment each lead back to the application and to the home page, in
// the reader's language, instead of ending the journey there.
import fs from 'node:fs/promises';
import path from 'node:path';
import { act, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { DocumentView } from '../../src/core/documents/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import type { TextTree } from '../../src/core/i18n/translate';
import type { PaymentOrderView } from '../../src/core/payments/types';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage, initI18n } from '../../src/portal/i18n';
import { PaymentScreenPage } from '../../src/portal/pages/PaymentScreenPage';
import { signedInSession } from '../../src/portal/session';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

let bundle: DefinitionBundle;
let visa: WorkflowDefinition;

beforeAll(async () => {
  visa = await readJson<WorkflowDefinition>('workflows/visa-application.json');
  const translations = {} as DefinitionBundle['translations'];
  for (const language of ['en', 'fr'] as const) {
    translations[language] = await readJson<TextTree>(`translations/${language}.json`);
    for (const part of ['visa-application', 'payment'])
      translations[language][part] = await readJson<TextTree>(
        `translations/${language}/${part}.json`,
      );
  }
  bundle = {
    modules: [],
    catalogs: [],
    workflows: [visa],
    schemas: [],
    translations,
    version: 't',
  };
  await initI18n(bundle);
});

const paid: DocumentView = {
  id: 'd1',
  type: 'visa-application',
  status: 'PAID FOR VERIFICATION',
  version: 4,
  number: 'VA-2026-000001',
  year: 2026,
  submittedAt: '2026-01-02T10:00:00.000Z',
  owner: 'applicant-1',
  ownerName: 'Ana Tui',
  assignee: null,
  data: {},
  createdAt: '2026-01-02T10:00:00.000Z',
  createdBy: 'Ana Tui',
  updatedAt: '2026-01-02T10:00:00.000Z',
  updatedBy: 'system:payment-gateway',
  allowedActions: [],
};

function order(status: PaymentOrderView['status']): PaymentOrderView {
  const approved = status === 'APPROVED';
  return {
    orderId: 'o1',
    orderReference: 'ORD-1',
    status,
    currency: 'NZD',
    items: [{ code: 'APP', name: 'Application fee', amount: '20.00' }],
    total: '20.00',
    amountPaid: approved ? '20.00' : null,
    maskedCard: approved ? '•••• 1111' : null,
    receiptReference: approved ? 'RCP-1' : null,
    paidAt: approved ? '2026-01-03T10:00:00.000Z' : null,
    createdAt: '2026-01-03T09:59:00.000Z',
  };
}

/** The payment screen at `route` of the visa, for its applicant, after an order in `status`. */
function renderPaymentScreen(route: string, status: PaymentOrderView['status']) {
  const get = vi.fn(async (backend: string) =>
    backend === 'payments'
      ? [undefined, { documentStatus: paid.status, order: order(status) }]
      : [undefined, paid],
  );
  const api = { get, post: vi.fn() } as unknown as ApiClient;
  const session = signedInSession(
    {
      sub: 'applicant-1',
      groups: ['read', 'pay', 'submit'].map((role) => `/visa-application-${role}`),
      name: 'Ana Tui',
    },
    { token: async () => 'token', login: vi.fn(), logout: vi.fn() },
  );
  const routes = visa.screens
    .filter((s) => ['/commit/:id', '/print/:id', '/error/:id'].includes(s.path))
    .map((s) => ({
      path: `${visa.prefix}${s.path}`,
      element: <PaymentScreenPage key={s.path} workflow={visa} screen={s} />,
    }));
  const router = createMemoryRouter(routes, { initialEntries: [route] });
  return render(
    <MantineProvider env="test">
      <PortalContext.Provider value={{ bundle, session, api }}>
        <RouterProvider router={router} />
      </PortalContext.Provider>
    </MantineProvider>,
  );
}

describe('the payment pages after the gateway', () => {
  it('lead from the paid page back to the application and home', async () => {
    await changeLanguage('en');
    renderPaymentScreen('/visa/application/commit/d1', 'APPROVED');
    await screen.findByText('Application Paid Successfully');
    const links = within(screen.getByRole('navigation', { name: 'Related pages' }));
    expect(links.getByRole('link', { name: 'Back to the application' }).getAttribute('href')).toBe(
      '/visa/application/view/d1',
    );
    expect(links.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/home');
  });

  it('lead from the receipt and a failed payment the same way, in French too', async () => {
    await act(() => changeLanguage('fr'));
    const receipt = renderPaymentScreen('/visa/application/print/d1', 'APPROVED');
    const nav = await screen.findByRole('navigation', { name: 'Pages associées' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Retour à la demande', 'Accueil']);
    receipt.unmount();

    renderPaymentScreen('/visa/application/error/d1', 'DECLINED');
    const failed = await screen.findByRole('navigation', { name: 'Pages associées' });
    expect(within(failed).getByRole('link', { name: 'Retour à la demande' })).toBeTruthy();
    await act(() => changeLanguage('en'));
  });
});
