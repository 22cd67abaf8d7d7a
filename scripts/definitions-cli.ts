import { serverModules } from '../src/modules/server';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/server/config';
import { rolesGrantedBy } from '../src/server/implementations';
import { DefinitionsError, loadDefinitions } from '../src/server/definitions/load';
import type { DefinitionBundle } from '../src/core/definitions/types';

/**
 * Loads the definitions the way the server does, or prints every problem and exits 1. What does
 * not stop the server (a role no access unit of the seed grants) is printed as a warning.
 */
export async function loadOrExit(): Promise<DefinitionBundle> {
  const dir = path.resolve(process.env.DEFINITIONS_DIR ?? PROJECT_ROOT);
  try {
    return await loadDefinitions(dir, serverModules, {
      grantedRoles: (workflows) => rolesGrantedBy(serverModules, (g) => g.seeded(workflows)),
      warn: (warning) =>
        process.stderr.write(`warning: ${warning.file}#${warning.pointer}: ${warning.message}\n`),
    });
  } catch (error) {
    if (error instanceof DefinitionsError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
