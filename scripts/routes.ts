/**
 * `npm run -s routes` prints every route of the portal with the roles that open it, as JSON,
 * computed from the definitions. `--markdown FILE` writes the same data as docs/routes.md.
 */
import fs from 'node:fs/promises';
import { portalRoutes, type PortalRoute } from '../src/core/definitions/routes';
import { loadOrExit } from './definitions-cli';

export function routesMarkdown(routes: PortalRoute[]): string {
  const rows = routes.map(
    (r) =>
      `| \`${r.path}\` | ${r.public ? 'public' : 'sign-in'} | ${r.roles.map((role) => `\`${role}\``).join(', ') || '-'} |`,
  );
  return [
    '# Routes of the portal',
    '',
    'Generated from the definitions by `npm run gen:routes-doc`; do not edit by hand.',
    'A route opens for a user who holds any one of its roles.',
    '',
    '| path | access | roles |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

async function main() {
  const routes = portalRoutes(await loadOrExit());
  const target = process.argv.indexOf('--markdown');
  if (target >= 0) {
    const file = process.argv[target + 1];
    if (!file) throw new Error('--markdown needs a file name');
    await fs.writeFile(file, routesMarkdown(routes));
    return;
  }
  process.stdout.write(`${JSON.stringify(routes, null, 2)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
