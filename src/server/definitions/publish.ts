import type { Kysely } from 'kysely';
import type { DefinitionBundle } from '../../core/definitions/types';
import type { Database } from '../db/schema';
import { moveStrandedDocuments } from '../documents/status-moves';
import type { ServerModule } from '../module';
import type { DefinitionFiles } from './files';
import { checkDefinitions, DefinitionsError } from './load';
import { recordSet, type DefinitionSet } from './sets';

/**
 * Publishes definition files: checked as at start, then recorded as the next version in one
 * transaction with the documents its `statusMoves` move. A removed status still holding
 * unmapped documents, or a stale base (StaleSetError), refuses it; every process switches.
 */
export async function publishDefinitions(
  db: Kysely<Database>,
  modules: readonly ServerModule[],
  files: DefinitionFiles,
  request: Parameters<typeof recordSet>[2],
): Promise<{ set: DefinitionSet; bundle: DefinitionBundle }> {
  const bundle = await checkDefinitions(files, modules);
  const set = await recordSet(db, files, request, async (trx) => {
    const { problems } = await moveStrandedDocuments(trx, bundle.workflows);
    if (problems.length > 0) throw new DefinitionsError(problems);
  });
  return { set, bundle };
}
