import { describe, expect, it } from 'vitest';
import { serverModules } from '../../src/modules/server';
import { loadDefinitions } from '../../src/server/definitions/load';
import { documentedRoutes } from '../../scripts/routes';

/**
 * The identity and public routes of specification 001, section 2: each path, with its roles
 * where the specification names them (null: it does not, "exact role name not shown").
 */
const SPECIFIED: Record<string, readonly string[] | null> = {
  '/register': [],
  '/success': [],
  '/connectid/profile': ['view-profile', 'manage-account'],
  '/connectid/profile/edit': ['view-profile', 'manage-account'],
  '/connectid/profile/password': ['view-profile', 'manage-account'],
  '/dashboard/home': ['view-profile', 'manage-account'],
  '/dashboard/my-library': ['view-profile', 'manage-account'],
  '/dashboard/my-tasks': ['view-profile', 'manage-account'],
  '/connectid/accounts': ['connectid-account-search'],
  '/connectid/accounts/pending': null,
  '/connectid/accounts/rejected': null,
  '/connectid/accounts/returned': null,
  '/connectid/accounts/active': null,
  '/connectid/accounts/inactive': null,
  '/connectid/accounts/deleted': null,
  '/connectid/accounts/new': null,
  '/connectid/accounts/view/:loginIdentifier': null,
  '/connectid/accounts/edit/:loginIdentifier': ['connectid-account-update'],
  '/connectid/accounts/edit-units/:loginIdentifier': null,
  '/connectid/accounts/delete/:loginIdentifier': null,
  '/connectid/accounts/undo-delete/:loginIdentifier': null,
  '/connectid/accounts/review/:loginIdentifier': null,
  '/connectid/accounts/security/:loginIdentifier': null,
  '/connectid/groups': null,
  '/connectid/groups/new': null,
  '/connectid/groups/view/:code': null,
  '/connectid/groups/edit/:code': null,
  '/connectid/groups/edit-units/:code': null,
  '/connectid/groups/delete/:code': null,
  '/connectid/groups/security/:code': null,
  '/connectid/policies': ['connectid-policy-search'],
  '/connectid/policies/new': null,
  '/connectid/policies/view/:code': null,
  '/connectid/policies/edit/:code': null,
  '/connectid/policies/delete/:code': null,
  '/connectid/policies/reset/:code': null,
  '/connectid/units': null,
  '/connectid/units/new': null,
  '/connectid/units/view/:code': null,
  '/connectid/units/edit/:code': null,
  '/connectid/units/edit-roles/:code': null,
  '/connectid/units/delete/:code': null,
  '/connectid/roles': ['connectid-role-search'],
};

/**
 * Routes the portal adds to the specified ones, for the reasons docs/decisions.md gives: every
 * versioned record's version screen (as the visa's /version/:id/:ver), a role's own screen (the
 * list opens it), the account screens the profile routes show the person's own account on, and
 * a service account's API credentials (the specification's `token`).
 */
const ADDED = [
  /^\/connectid\/(accounts|groups|policies|units|roles)\/version\/:(loginIdentifier|code)\/:ver$/,
  /^\/connectid\/roles\/view\/:code$/,
  /^\/connectid\/accounts\/profile(\/edit)?\/:id$/,
  /^\/connectid\/accounts\/api-credentials\/:loginIdentifier$/,
  // The closure requests administrators review, and the closed accounts.
  /^\/connectid\/profile\/(security|data)$/,
  /^\/connectid\/accounts\/(closed|closure-requests|closure\/:loginIdentifier)$/,
];

describe('the identity and public routes', () => {
  it('are those of the specification, with the roles it names', async () => {
    // What `npm run -s routes` prints, self-registration on.
    const routes = documentedRoutes(await loadDefinitions('.', serverModules), true);
    const byPath = new Map(routes.map((route) => [route.path, route]));
    for (const [path, roles] of Object.entries(SPECIFIED)) {
      const route = byPath.get(path);
      expect(route, path).toBeDefined();
      if (roles === null) expect(route?.roles.length, path).toBeGreaterThan(0);
      else expect([...(route?.roles ?? [])].sort(), path).toEqual([...roles].sort());
      if (path === '/register' || path === '/success') expect(route?.public, path).toBe(true);
    }
  });

  it('add nothing beyond the documented version, role and own-profile screens', async () => {
    // What `npm run -s routes` prints, self-registration on.
    const routes = documentedRoutes(await loadDefinitions('.', serverModules), true);
    const extra = routes
      .map((route) => route.path)
      .filter((path) => /^\/(connectid|dashboard)\//.test(path) || path === '/register')
      .filter((path) => !Object.hasOwn(SPECIFIED, path))
      .filter((path) => !ADDED.some((pattern) => pattern.test(path)));
    expect(extra).toEqual([]);
  });
});
