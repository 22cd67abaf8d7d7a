// The retention plan screen (docs/retention.md): the documents due and those held, in words;
// a run only after a confirmation, with the plan's instant and digest; a plan changed meanwhile
// said so and asked for again.
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { RetentionItem } from '../../src/core/retention/plan';
import { changeLanguage } from '../../src/portal/i18n';
import { PortalContext } from '../../src/portal/context';
import { RetentionPlanPage } from '../../src/portal/pages/RetentionPlanPage';
import type { Session } from '../../src/portal/session';
import { initPortalTexts } from './portal-texts';

configure({ asyncUtilTimeout: 10_000 });

const item = (over: Partial<RetentionItem>): RetentionItem => ({
  documentId: '00000000-0000-4000-8000-000000000001',
  type: 'visa-application',
  number: 'VIS-2024-000123',
  status: 'REJECTED',
  due: '2026-03-10T09:30:00.000Z',
  action: 'erase',
  fields: ['/applicant/givenName', '/contact'],
  uploads: ['u1'],
  ...over,
});
const PLAN = {
  at: '2026-11-29T10:00:00.000Z',
  digest: 'abc',
  items: [
    item({}),
    item({
      documentId: '00000000-0000-4000-8000-000000000002',
      number: 'VIS-2024-000124',
      held: ['holdFlag', 'pendingRefund'],
    }),
  ],
};

beforeAll(async () => {
  await initPortalTexts(['retention']);
});

function renderPage(post: ApiClient['post']) {
  const get = vi.fn(async () => [null, PLAN]);
  const api = { get, post } as unknown as ApiClient;
  const session = { hasAnyRole: () => true } as unknown as Session;
  render(
    <MantineProvider env="test">
      <PortalContext.Provider value={{ bundle: {} as DefinitionBundle, session, api }}>
        <MemoryRouter>
          <RetentionPlanPage />
        </MemoryRouter>
      </PortalContext.Provider>
    </MantineProvider>,
  );
  return { get };
}

describe('the retention plan screen', () => {
  it('lists what goes and what is held, and runs the plan shown after a confirmation', async () => {
    await changeLanguage('en');
    const post = vi.fn(async () => [null, { done: [PLAN.items[0]], held: 1, skipped: [] }]);
    const { get } = renderPage(post as unknown as ApiClient['post']);
    const table = await screen.findByRole('table', { name: 'Documents due (2)' });
    expect(within(table).getByText('Erase')).toBeTruthy();
    expect(within(table).getByText('Held: Legal hold')).toBeTruthy();
    expect(within(table).getByText('Held: Refund under way')).toBeTruthy();
    expect(within(table).getAllByText('2 personal fields, 1 upload')).toHaveLength(2);

    await userEvent.click(screen.getByRole('button', { name: 'Run the erasure' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('1 documents will be cleared now');
    expect(post).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase now' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('system', '/retention/run', { at: PLAN.at, digest: 'abc' }),
    );
    expect((await screen.findByRole('status')).textContent).toContain(
      '1 documents cleared, 1 held',
    );
    // The plan asked for again, as it now stands.
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
  });

  it('says in French when the plan changed since it was shown', async () => {
    await changeLanguage('fr');
    const post = vi.fn(async () => [
      { status: 409, code: 'RETENTION_PLAN_CHANGED', message: 'changed' },
      null,
    ]);
    renderPage(post as unknown as ApiClient['post']);
    await screen.findByRole('table', { name: 'Dossiers échus (2)' });
    expect(screen.getAllByText('Gelé: Gel judiciaire').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Lancer l’effacement' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Effacer maintenant' }),
    );
    expect((await screen.findByRole('status')).textContent).toContain(
      'Le plan a changé depuis son affichage',
    );
    await changeLanguage('en');
  });
});
