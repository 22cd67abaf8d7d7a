// The team view (`workload`; docs/workflows.md, "Assignment and workload") as an assigning
// officer meets it: a loading state, then a table of officers by statuses with row and column
// headers, those who lost the role said so, the unassigned last; a translated error otherwise.
import { act, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage } from '../../src/portal/i18n';
import { WorkloadPage } from '../../src/portal/pages/WorkloadPage';
import { signedInSession } from '../../src/portal/session';
import { initPortalTexts } from './portal-texts';

const workflow = {
  id: 'visa-application',
  backend: 'evisa',
  actions: { assign: { roles: ['assign'], payload: 'assignee', assignees: ['forward'] } },
  workload: { action: 'assign', path: '/workload' },
} as unknown as WorkflowDefinition;

const WORKLOAD = {
  action: 'assign',
  statuses: ['PAID FOR VERIFICATION', 'VERIFIED'],
  rows: [
    {
      officer: { id: 'a', login: 'verifier', name: 'Tavita Verifier', member: true },
      counts: { 'PAID FOR VERIFICATION': 3, VERIFIED: 1 },
      total: 4,
    },
    {
      officer: { id: 'b', login: 'kalo', name: 'Kalo Colleague', member: false },
      counts: { VERIFIED: 2 },
      total: 2,
    },
    { officer: null, counts: { 'PAID FOR VERIFICATION': 5 }, total: 5 },
  ],
};

beforeAll(async () => {
  await initPortalTexts(['assignment']);
});

function renderPage(answer: () => Promise<ApiResult<unknown>>) {
  const get = vi.fn(async (_backend: string, _path: string) => answer());
  const session = signedInSession(
    { sub: 'a', groups: ['/visa-application-assign'], name: 'Tavita Verifier' },
    { token: async () => 'token', login: vi.fn(), logout: vi.fn() },
  );
  render(
    <MantineProvider env="test">
      <PortalContext.Provider
        value={{
          bundle: { workflows: [] } as unknown as DefinitionBundle,
          session,
          api: { get } as unknown as ApiClient,
        }}
      >
        <WorkloadPage workflow={workflow} />
      </PortalContext.Provider>
    </MantineProvider>,
  );
  return get;
}

describe('the team workload page', () => {
  it('counts open cases per officer and status, the unassigned last, after a loading state', async () => {
    await changeLanguage('en');
    let release: (value: ApiResult<unknown>) => void = () => undefined;
    const get = renderPage(() => new Promise((resolve) => (release = resolve)));
    expect(get).toHaveBeenCalledWith('evisa', '/visa-application/workload');
    expect(screen.getByRole('heading', { name: 'Team workload' })).toBeDefined();
    expect(screen.getByRole('status', { name: /Loading the team/ })).toBeDefined();
    await act(async () => release([null, WORKLOAD] as ApiResult<unknown>));
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    const cells = rows.map((row) =>
      [...row.querySelectorAll('th, td')].map((cell) => cell.textContent),
    );
    // Each officer's name heads their row; each status its column.
    expect(within(rows[1]!).getByRole('rowheader').textContent).toBe('Tavita Verifier (verifier)');
    expect(within(rows[0]!).getAllByRole('columnheader')).toHaveLength(4);
    expect(cells[0]).toEqual(['Officer', 'Paid for verification', 'Verified', 'Total']);
    expect(cells.slice(1)).toEqual([
      ['Tavita Verifier (verifier)', '3', '1', '4'],
      ['Kalo Colleague — no longer holds the role', '0', '2', '2'],
      ['Unassigned', '5', '0', '5'],
    ]);
  });

  it('says so in French when it cannot be read', async () => {
    await changeLanguage('fr');
    renderPage(async () => [{ status: 500, code: 'X', message: 'no' }, null] as ApiResult<unknown>);
    expect(screen.getByRole('heading', { name: "Charge de l'équipe" })).toBeDefined();
    expect((await screen.findByRole('alert')).textContent).toBe(
      "Impossible de charger la charge de l'équipe",
    );
    await changeLanguage('en');
  });
});
