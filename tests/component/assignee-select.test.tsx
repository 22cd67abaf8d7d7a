// "Officer to assign" (AssigneeSelect) and the history's assignment line, as an officer meets
// them: a choice among the people the server lists for the action (by name, not a text box),
// a loading state while it answers, a word when nobody qualifies or the list cannot be read,
// the current assignee chosen to start with, each with their open cases, and "Assigned to
// <name>" (a reassignment: "Reassigned from <name> to <name>" and why) in the history.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ApiResult } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { HistoryEntry } from '../../src/core/documents/types';
import type { WorkflowDefinition } from '../../src/core/documents/workflow';
import { HistoryTable } from '../../src/engine';
import { PortalContext } from '../../src/portal/context';
import { changeLanguage } from '../../src/portal/i18n';
import { AssigneeSelect } from '../../src/portal/pages/document/AssigneeSelect';
import { signedInSession } from '../../src/portal/session';
import { initPortalTexts } from './portal-texts';

const workflow = {
  id: 'visa-application',
  backend: 'evisa',
  actions: { assign: { roles: ['assign'], payload: 'assignee', assignees: ['forward'] } },
} as unknown as WorkflowDefinition;

// As the server lists them: fewest open cases first (docs/workflows.md, "Assignment and workload").
const OFFICERS = [
  { id: 'id-kalo', login: 'kalo', name: 'Kalo Colleague', openCases: 1 },
  { id: 'id-tavita', login: 'verifier', name: 'Tavita Verifier', openCases: 4 },
];

beforeAll(async () => {
  await initPortalTexts(['assignment']);
});

/** An API whose answer to the assignees' list is given (or held until `release`). */
function fakeApi(answer: () => Promise<ApiResult<unknown>>) {
  const get = vi.fn(async (_backend: string, _path: string) => answer());
  return { api: { get } as unknown as ApiClient, get };
}

function renderSelect(api: ApiClient, current: string | null = null) {
  const chosen: string[] = [];
  function Host() {
    const [value, setValue] = useState('');
    return (
      <AssigneeSelect
        id="document-assignee"
        workflow={workflow}
        action="assign"
        current={current}
        value={value}
        onChange={(next) => {
          chosen.push(next);
          setValue(next);
        }}
      />
    );
  }
  const session = signedInSession(
    { sub: 'id-tavita', groups: ['/visa-application-assign'], name: 'Tavita Verifier' },
    { token: async () => 'token', login: vi.fn(), logout: vi.fn() },
  );
  render(
    <MantineProvider env="test">
      <PortalContext.Provider
        value={{ bundle: { workflows: [] } as unknown as DefinitionBundle, session, api }}
      >
        <Host />
      </PortalContext.Provider>
    </MantineProvider>,
  );
  return chosen;
}

describe('the officer to assign', () => {
  it('offers the people the server lists for the action, with their open cases, after a loading state', async () => {
    await changeLanguage('en');
    let release: (value: ApiResult<unknown>) => void = () => undefined;
    const { api, get } = fakeApi(() => new Promise((resolve) => (release = resolve)));
    const chosen = renderSelect(api);
    expect(get).toHaveBeenCalledWith('evisa', '/visa-application/assignees/assign');
    const field = screen.getByRole('combobox', { name: /Officer to assign/ });
    expect(field).toHaveProperty('disabled', true);
    expect(screen.getByRole('status', { name: /Loading the officers/ })).toBeDefined();
    await act(async () => release([null, { items: OFFICERS }] as ApiResult<unknown>));
    await waitFor(() => expect(field).toHaveProperty('disabled', false));
    fireEvent.click(field);
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Kalo Colleague (kalo) — 1 open case',
      'Tavita Verifier (verifier) — 4 open cases',
    ]);
    fireEvent.click(options[1]!);
    // The account's id is what the action sends.
    expect(chosen.at(-1)).toBe('id-tavita');
  });

  it('starts from whom the document is assigned to now', async () => {
    const { api } = fakeApi(async () => [null, { items: OFFICERS }] as ApiResult<unknown>);
    const chosen = renderSelect(api, 'id-kalo');
    await waitFor(() => expect(chosen).toEqual(['id-kalo']));
    const field = screen.getByRole('combobox', { name: /Officer to assign/ });
    await waitFor(() =>
      expect((field as HTMLInputElement).value).toBe('Kalo Colleague (kalo) — 1 open case'),
    );
  });

  it('says so when nobody holds the role, or the list cannot be read, in French too', async () => {
    await changeLanguage('fr');
    const nobody = fakeApi(async () => [null, { items: [] }] as ApiResult<unknown>);
    renderSelect(nobody.api);
    expect(
      await screen.findByText('Aucun agent ne détient le rôle nécessaire à cette étape'),
    ).toBeDefined();
    const failed = fakeApi(
      async () => [{ status: 500, code: 'X', message: 'no' }, null] as ApiResult<unknown>,
    );
    renderSelect(failed.api);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Impossible de charger la liste des agents',
    );
    await changeLanguage('en');
  });

  it('counts open cases in French', async () => {
    await changeLanguage('fr');
    const { api } = fakeApi(async () => [null, { items: OFFICERS }] as ApiResult<unknown>);
    renderSelect(api);
    const field = screen.getByRole('combobox', { name: /Agent/ });
    await waitFor(() => expect(field).toHaveProperty('disabled', false));
    fireEvent.click(field);
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Kalo Colleague (kalo) — 1 dossier ouvert',
      'Tavita Verifier (verifier) — 4 dossiers ouverts',
    ]);
    await changeLanguage('en');
  });
});

describe('the history of an assignment', () => {
  it('says to whom, in the reader\u2019s language', async () => {
    const history: HistoryEntry[] = [
      {
        version: 4,
        action: 'assign',
        operation: 'PAID FOR VERIFICATION -> PAID FOR VERIFICATION',
        at: '2026-01-02T10:00:00.000Z',
        notes: null,
        name: 'Tavita Verifier',
        email: 'verifier@immigration.example',
        mobile: '+685 7210005',
        assignedTo: 'Kalo Colleague',
      },
      {
        version: 5,
        action: 'assign',
        operation: 'PAID FOR VERIFICATION -> PAID FOR VERIFICATION',
        at: '2026-01-03T10:00:00.000Z',
        notes: 'Kalo is on leave',
        name: 'Tavita Verifier',
        email: 'verifier@immigration.example',
        mobile: '+685 7210005',
        assignedTo: 'Tavita Verifier',
        assignedFrom: 'Kalo Colleague',
      },
    ];
    const api = { get: vi.fn(async () => [undefined, history]) } as unknown as ApiClient;
    for (const [language, text, again] of [
      [
        'en',
        'Assigned to Kalo Colleague',
        'Reassigned from Kalo Colleague to Tavita Verifier · Kalo is on leave',
      ],
      [
        'fr',
        'Attribué à Kalo Colleague',
        'Réattribué de Kalo Colleague à Tavita Verifier · Kalo is on leave',
      ],
    ] as const) {
      await changeLanguage(language);
      const view = render(
        <MantineProvider env="test">
          <HistoryTable api={api} backend="evisa" type="visa-application" id="d1" current={4} />
        </MantineProvider>,
      );
      const row = await within(view.container).findByText(text);
      expect(row.tagName).toBe('TD');
      // A reassignment: from whom, to whom, and why.
      expect((await within(view.container).findByText(again)).tagName).toBe('TD');
      view.unmount();
    }
    await changeLanguage('en');
  });
});
