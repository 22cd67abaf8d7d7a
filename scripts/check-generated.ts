/**
 * `npm run check:generated` verifies that the files generated from the project's definitions
 * are current: the types in src/generated/ (`npm run gen:types`), docs/routes.md
 * (`npm run gen:routes-doc`) and the published meta-schemas in meta/ (`npm run gen:meta`). It never rewrites them; it names the command that does.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/server/config';
import { loadOrExit } from './definitions-cli';
import { metaDrift, metaSchemaFiles } from './gen-meta';
import { generatedDrift, generatedFiles } from './gen-types';
import { documentedRoutes, routesMarkdown } from './routes';

if (process.env.DEFINITIONS_DIR) {
  process.stderr.write(
    "check:generated checks the project's own generated files: unset DEFINITIONS_DIR\n",
  );
  process.exit(2);
}
const bundle = await loadOrExit();
const problems = [
  ...(await generatedDrift(await generatedFiles(bundle))),
  ...(await metaDrift(await metaSchemaFiles())),
];
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
process.stdout.write('Generated files OK: src/generated/, meta/ and docs/routes.md\n');
