import fs from 'node:fs/promises';
import path from 'node:path';
import { render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/core/api/client';
import type { DefinitionBundle } from '../../src/core/definitions/types';
import type { TextTree } from '../../src/core/i18n/translate';
import { PortalContext } from '../../src/portal/context';
import { initI18n } from '../../src/portal/i18n';
import { RequireRoles } from '../../src/portal/RequireRoles';
import { createPortalRouter } from '../../src/portal/router';
import { signedInSession, signedOutSession, type Session } from '../../src/portal/session';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = async <T,>(file: string): Promise<T> =>
  JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as T;

/** The fake session: the `Session` interface is the seam (keycloak-js is exercised end to end). */
function fakeSession(roles?: string[]): Session {
  const login = vi.fn();
  if (!roles) return signedOutSession(login);
  return signedInSession(
    { groups: roles.map((role) => `/${role}`), name: 'Ana Officer', preferred_username: 'ana' },
    { token: async () => 'token', login, logout: vi.fn() },
  );
}

let bundle: DefinitionBundle;

/** The API as seen with the server down: every call answers an error (pages show theirs). */
const failure = { status: 503, code: 'NETWORK_UNAVAILABLE', message: 'offline' };
const unreachableApi = new Proxy({} as ApiClient, {
  get: () => async () => [failure, undefined],
});

beforeAll(async () => {
  const translations = {} as DefinitionBundle['translations'];
  for (const language of ['en', 'fr'] as const)
    translations[language] = await readJson<TextTree>(`translations/${language}.json`);
  const { modules } = await readJson<Pick<DefinitionBundle, 'modules'>>('modules.json');
  bundle = { modules, catalogs: [], workflows: [], schemas: [], translations, version: 'test' };
  await initI18n(bundle);
});

function renderGuarded(session: Session, entry: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/secret',
        element: (
          <RequireRoles roles={['visa-application-search', 'visa-application-read']}>
            <p>secret page</p>
          </RequireRoles>
        ),
      },
      { path: '/403', element: <p>forbidden page</p> },
    ],
    { initialEntries: [entry] },
  );
  render(
    <MantineProvider env="test">
      <PortalContext.Provider value={{ bundle, session, api: unreachableApi }}>
        <RouterProvider router={router} />
      </PortalContext.Provider>
    </MantineProvider>,
  );
  return router;
}

describe('access rule of a non-public page', () => {
  it('sends a signed-out user to sign in, back to the page afterwards', async () => {
    const session = fakeSession();
    const router = renderGuarded(session, '/secret?page=2');
    await waitFor(() => expect(session.login).toHaveBeenCalledWith('/secret?page=2'));
    expect(screen.getByRole('status', { name: 'Redirecting to sign in' })).toBeTruthy();
    expect(screen.queryByText('secret page')).toBeNull();
    expect(router.state.location.pathname).toBe('/secret');
  });

  it('sends a signed-in user holding none of the roles to /403', async () => {
    const session = fakeSession(['view-profile', 'visa-application-submit']);
    const router = renderGuarded(session, '/secret');
    expect(await screen.findByText('forbidden page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/403');
    expect(session.login).not.toHaveBeenCalled();
  });

  it('shows the page to a user holding any one of its roles', () => {
    const session = fakeSession(['visa-application-read']);
    renderGuarded(session, '/secret');
    expect(screen.getByText('secret page')).toBeTruthy();
    expect(session.login).not.toHaveBeenCalled();
  });
});

describe('routes of the portal', () => {
  beforeEach(() => {
    window.location.hash = '';
  });

  function open(session: Session, hash: string) {
    window.location.hash = hash;
    const router = createPortalRouter(bundle);
    render(
      <MantineProvider env="test">
        <PortalContext.Provider value={{ bundle, session, api: unreachableApi }}>
          <RouterProvider router={router} />
        </PortalContext.Provider>
      </MantineProvider>,
    );
    return router;
  }

  it.each(['#/', '#/home'])('%s shows the public home page when signed out', async (hash) => {
    const router = open(fakeSession(), hash);
    expect(await screen.findByText('You are not signed in')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/home');
  });

  it.each(['#/', '#/home'])('%s sends a signed-in user to /dashboard/home', async (hash) => {
    const router = open(fakeSession(['view-profile']), hash);
    // The dashboard is a lazy page: on a loaded machine its chunk takes longer than the
    // default second to load, which says nothing about where the user was sent.
    expect(
      await screen.findByRole('heading', { name: 'Welcome, Ana Officer' }, { timeout: 30_000 }),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/home');
    await waitFor(() => expect(document.title).toBe('Ana Officer - Immigration Portal'));
  });

  it('sends a signed-out user opening /dashboard/home to sign in', async () => {
    const session = fakeSession();
    open(session, '#/dashboard/home');
    await waitFor(() => expect(session.login).toHaveBeenCalledWith('/dashboard/home'));
  });

  it.each(['#/401', '#/403', '#/offline', '#/no/such/page'])('%s is public', async (hash) => {
    const session = fakeSession();
    open(session, hash);
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(session.login).not.toHaveBeenCalled();
  });

  it('toggles the application menu with the burger button', async () => {
    open(fakeSession(), '#/home');
    const burger = await screen.findByRole('button', { name: 'Application menu' });
    expect(burger.getAttribute('aria-expanded')).toBe('false');
    burger.click();
    await waitFor(() => expect(burger.getAttribute('aria-expanded')).toBe('true'));
    const menu = screen.getByRole('navigation', { name: 'Application menu' });
    expect(menu.hasAttribute('inert')).toBe(false);
    expect(burger.getAttribute('aria-controls')).toBe(menu.id);
  });
});
