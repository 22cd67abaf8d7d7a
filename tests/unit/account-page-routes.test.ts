import { describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import { loadDefinitions } from '../../src/server/definitions/load';
import { documentedRoutes, routesMarkdown } from '../../scripts/routes';

/**
 * `npm run routes` and docs/routes.md list the user management module's own pages: the profile
 * and password pages for the profile roles, and /register and /success as public pages only
 * when self-registration is on.
 */
describe('the portal routes of the user management pages', () => {
  it('lists registration as public when self-registration is on, and not when off', async () => {
    const bundle = await loadDefinitions('.', serverModules);
    const on = documentedRoutes(bundle, true);
    const find = (path: string) => on.find((route) => route.path === path);
    for (const path of ['/register', '/success'])
      expect(find(path)).toEqual({ path, roles: [], public: true, when: 'selfRegistration' });
    for (const path of [
      '/connectid/profile',
      '/connectid/profile/edit',
      '/connectid/profile/password',
    ])
      expect(find(path)).toEqual({
        path,
        roles: ['view-profile', 'manage-account'],
        public: false,
      });
    const off = documentedRoutes(bundle, false).map((route) => route.path);
    expect(off).not.toContain('/register');
    expect(off).not.toContain('/success');
    expect(off).toContain('/connectid/profile/password');
    expect(routesMarkdown(on)).toContain(
      '| `/register` | public, signed out, when self-registration is on | - |',
    );
    // No module, no pages of its own (its workflows' routes go with the workflows, at load).
    const none = documentedRoutes(
      { ...bundle, modules: bundle.modules.map((m) => ({ ...m, enabled: m.id !== 'connectid' })) },
      true,
    ).map((route) => route.path);
    expect(none.filter((p) => p.startsWith('/connectid/profile') || p === '/register')).toEqual([]);
  });
});
