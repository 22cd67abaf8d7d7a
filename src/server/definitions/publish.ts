import type { Kysely } from 'kysely';
import type { DefinitionBundle } from '../../core/definitions/types';
import type { Database } from '../db/schema';
import { moveStrandedDocuments } from '../documents/status-moves';
import type { ServerModule } from '../module';
import type { DefinitionFiles } from './files';
import { checkDefinitions, DefinitionsError } from './load';
import { recordSet, type DefinitionSet } from './sets';

/** What a publish says of itself. */
export interface PublishRequest {
  /** The version the files were made from: the newest, or the publish is refused as stale. */
  base: number;
  note: string;
  by: string;
  source: 'publish' | 'restore';
}

/**
 * Publishes a set of definition files: checked by the checker the server starts with (an
 * invalid set is refused, DefinitionsError naming every problem), then recorded as the next
 * version in one transaction with the documents it moves (a removed status mapped in
 * `statusMoves`); a removed status still holding documents and not mapped refuses it, naming
 * how many. A base that is not the newest is refused (StaleSetError). Every process hears the
 * new version (the set's notice) and switches to it.
 */
export async function publishDefinitions(
  db: Kysely<Database>,
  modules: readonly ServerModule[],
  files: DefinitionFiles,
  request: PublishRequest,
): Promise<{ set: DefinitionSet; bundle: DefinitionBundle }> {
  const bundle = await checkDefinitions(files, modules);
  const set = await recordSet(db, files, request, async (trx) => {
    const { problems } = await moveStrandedDocuments(trx, bundle.workflows);
    if (problems.length > 0) throw new DefinitionsError(problems);
  });
  return { set, bundle };
}
