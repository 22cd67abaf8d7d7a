import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { CurrentRouterProvider } from '../../src/portal/CurrentRouterProvider';

/**
 * The portal's first render is sliced, so the browser may navigate (back button, an address
 * typed while the portal starts) after the router provider read the router's state and before
 * it listens. Here a component rendered after the provider, in the same render, navigates: the
 * router's state moves while the provider does not listen yet. react-router buffers such a change
 * only while the router has no subscriber at all, and the portal's router has one from the start
 * (it preloads each page's code as the location changes: router.tsx).
 */
function renderNavigatingMidRender(Provider: typeof RouterProvider | typeof CurrentRouterProvider) {
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element: <h1>Dashboard</h1> },
      { path: '/accounts', element: <h1>Accounts</h1> },
    ],
    { initialEntries: ['/dashboard'] },
  );
  router.subscribe(() => undefined);
  function BrowserNavigates() {
    if (router.state.location.pathname === '/dashboard') void router.navigate('/accounts');
    return null;
  }
  render(
    <>
      <Provider router={router} />
      <BrowserNavigates />
    </>,
  );
  return router;
}

describe('CurrentRouterProvider', () => {
  it('shows the page of a navigation made before the provider listened', async () => {
    const router = renderNavigatingMidRender(CurrentRouterProvider);
    expect(router.state.location.pathname).toBe('/accounts');
    expect(await screen.findByRole('heading', { name: 'Accounts' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).toBeNull();
  });

  it('is needed: react-router’s own provider, on a router with a subscriber, stays on the page it started on', async () => {
    const router = renderNavigatingMidRender(RouterProvider);
    expect(router.state.location.pathname).toBe('/accounts');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  });

  it('goes on hearing navigations once it listens', async () => {
    const router = renderNavigatingMidRender(CurrentRouterProvider);
    await screen.findByRole('heading', { name: 'Accounts' });
    await router.navigate('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  });
});
