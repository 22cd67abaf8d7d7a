/**
 * `npm run -s routes` prints every route of the portal with the roles that open it, as JSON,
 * computed from the definitions and the portal's own pages (profile, password, registration;
 * the registration pages only when SELF_REGISTRATION is on, as on the server). `--markdown FILE`
 * writes the same data as docs/routes.md, registration included and marked as switched.
 */
import fs from 'node:fs/promises';
import {
  accountPageRoutes,
  type AccountPageRoute,
} from '../src/modules/connectid/shared/account-pages';
import { developerPageRoutes } from '../src/core/definitions/developer-pages';
import { studioRoutes } from '../src/core/definitions/studio-roles';
import { auditRoutes } from '../src/core/definitions/audit-roles';
import { portalRoutes } from '../src/core/definitions/routes';
import type { DefinitionBundle } from '../src/core/definitions/types';
import { configFromEnv } from '../src/server/config';
import { loadOrExit } from './definitions-cli';

/** The definitions' routes and the portal's own pages, by path. */
export function documentedRoutes(
  bundle: Pick<DefinitionBundle, 'modules' | 'catalogs' | 'workflows'>,
  selfRegistration: boolean,
): AccountPageRoute[] {
  return [
    ...portalRoutes(bundle),
    ...accountPageRoutes(bundle, selfRegistration),
    ...developerPageRoutes(),
    ...studioRoutes(),
    ...auditRoutes(),
  ].sort((a, b) => a.path.localeCompare(b.path));
}

function access(route: AccountPageRoute): string {
  if (route.when === 'selfRegistration') return 'public, signed out, when self-registration is on';
  return route.public ? 'public' : 'sign-in';
}

export function routesMarkdown(routes: AccountPageRoute[]): string {
  const rows = routes.map(
    (r) =>
      `| \`${r.path}\` | ${access(r)} | ${r.roles.map((role) => `\`${role}\``).join(', ') || '-'} |`,
  );
  return [
    '# Routes of the portal',
    '',
    'Generated from the definitions by `npm run gen:routes-doc`; do not edit by hand.',
    'A route opens for a user who holds any one of its roles. `/register` and `/success` exist',
    'only when the server runs with self-registration on (`SELF_REGISTRATION`, on by default);',
    '`npm run -s routes` lists them as the environment says.',
    '',
    '| path | access | roles |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

async function main() {
  const bundle = await loadOrExit();
  const target = process.argv.indexOf('--markdown');
  if (target >= 0) {
    const file = process.argv[target + 1];
    if (!file) throw new Error('--markdown needs a file name');
    await fs.writeFile(file, routesMarkdown(documentedRoutes(bundle, true)));
    return;
  }
  const routes = documentedRoutes(bundle, configFromEnv().selfRegistration);
  process.stdout.write(`${JSON.stringify(routes, null, 2)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
