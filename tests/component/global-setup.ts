// Generates the fixture's validator module with the server's code, in Node (esbuild cannot run
// inside jsdom), for the component tests to import as the browser would.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { EntityFormDefinition } from '../../src/core/rules/sections';
import { entityValidatorModules } from '../../src/server/definitions/validators';

declare module 'vitest' {
  export interface ProvidedContext {
    samplePermitValidators: string;
  }
}

export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '../..');
  const definition = JSON.parse(
    await fs.readFile(
      path.join(root, 'tests/fixtures/definitions/schemas/sample-permit.schema.json'),
      'utf8',
    ),
  ) as EntityFormDefinition;
  const { document, sections } = await entityValidatorModules(definition);
  // Inside the project (ignored cache folder) so Vite's module runner may import it; a folder
  // of this run's own, which another run's teardown cannot remove from under it.
  const dir = path.join(root, `node_modules/.cache/component-validators-${process.pid}`);
  await fs.mkdir(dir, { recursive: true });
  // The server's modules as they are, and one module gathering them (EntityValidators): the
  // component tests hand the form every validator at once.
  await fs.writeFile(path.join(dir, 'document.mjs'), document);
  const ids = [...sections.keys()];
  for (const [index, id] of ids.entries())
    await fs.writeFile(path.join(dir, `section-${index}.mjs`), sections.get(id) ?? '');
  const byId = (name: string) =>
    `{${ids.map((id, index) => `${JSON.stringify(id)}: s${index}.${name}`).join(', ')}}`;
  const file = path.join(dir, 'sample-permit.mjs');
  await fs.writeFile(
    file,
    [
      `import validate from './document.mjs';`,
      ...ids.map((_, index) => `import * as s${index} from './section-${index}.mjs';`),
      `export { validate };`,
      `export default validate;`,
      `export const sections = ${byId('validate')};`,
      `export const rjsf = ${byId('rjsf')};`,
      `export const sectionSchemas = ${byId('schema')};`,
    ].join('\n'),
  );
  project.provide('samplePermitValidators', file);
  return async () => fs.rm(dir, { recursive: true, force: true });
}
