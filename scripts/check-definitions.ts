/**
 * `npm run check:definitions` runs the server's own checks on every definition (meta-schemas,
 * references, translations in both languages), compiles every validator, and verifies that the
 * generated types and docs/routes.md are current.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { compileValidators } from '../src/server/definitions/validators';
import { PROJECT_ROOT } from '../src/server/config';
import { loadOrExit } from './definitions-cli';
import { generatedDrift, generatedFiles } from './gen-types';
import { documentedRoutes, routesMarkdown } from './routes';

const bundle = await loadOrExit();
await compileValidators(bundle);
// Only checked here: `npm run gen:types` is the one writer of src/generated/.
const problems = await generatedDrift(await generatedFiles(bundle));
const routesDoc = await fs
  .readFile(path.join(PROJECT_ROOT, 'docs/routes.md'), 'utf8')
  .catch(() => '');
if (routesDoc !== routesMarkdown(documentedRoutes(bundle, true))) {
  problems.push('docs/routes.md is out of date: run npm run gen:routes-doc');
}
if (problems.length) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `Definitions OK: ${bundle.catalogs.length} catalogues, ${bundle.schemas.length} schemas, ${bundle.workflows.length} workflows\n`,
);
