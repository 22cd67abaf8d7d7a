/**
 * `npm run check:definitions` runs the server's own checks on every definition (meta-schemas,
 * references, translations in both languages) and compiles every validator, on the project's
 * definitions or on the folder `DEFINITIONS_DIR` names. It reads the definitions only: the
 * generated types and docs/routes.md are the developers' artefacts, checked by
 * `npm run check:generated`, so an analyst's separate folder is checked as the server loads it.
 */
import { compileValidators } from '../src/server/definitions/validators';
import { loadOrExit } from './definitions-cli';

const bundle = await loadOrExit();
await compileValidators(bundle);
process.stdout.write(
  `Definitions OK: ${bundle.catalogs.length} catalogues, ${bundle.schemas.length} schemas, ${bundle.workflows.length} workflows\n`,
);
