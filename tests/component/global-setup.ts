// Generates the fixture's validator module with the server's code, in Node (esbuild cannot run
// inside jsdom), for the component tests to import as the browser would.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { EntityFormDefinition } from '../../src/core/rules/sections';
import { entityValidatorModule } from '../../src/server/definitions/validators';

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
  const { source } = await entityValidatorModule(definition);
  // Inside the project (ignored cache folder) so Vite's module runner may import it.
  const dir = path.join(root, 'node_modules/.cache/component-validators');
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, 'sample-permit.mjs');
  await fs.writeFile(file, source);
  project.provide('samplePermitValidators', file);
  return async () => fs.rm(dir, { recursive: true, force: true });
}
