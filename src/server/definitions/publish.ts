import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { DefinitionFiles } from './files';
import { DefinitionsError } from './load';
import { dataMoveActor, undoDataMoves } from './migration-undo';
import { recordSet, type DefinitionSet } from './sets';
import { verdict, type Verdict, type VerdictOptions } from './verdict';

/**
 * Publishes definition files: recorded as the next version in one transaction with the verdict
 * (verdict.ts) a check gives, and with the moves it makes: the documents its `statusMoves` and
 * `dataMoves` move. A restore (`restores`: the version published again) first takes back the
 * data moves of the versions after it. Any problem refuses it (DefinitionsError) and takes every
 * move back; a stale base refuses it (StaleSetError); every process switches.
 */
export async function publishDefinitions(
  db: Kysely<Database>,
  files: DefinitionFiles,
  request: Parameters<typeof recordSet>[2] & { restores?: number },
  options: Omit<VerdictOptions, 'documents' | 'writer'>,
): Promise<{ set: DefinitionSet; verdict: Verdict & { bundle: NonNullable<Verdict['bundle']> } }> {
  let decided: Verdict | undefined;
  const set = await recordSet(db, files, request, async (trx, version) => {
    // The publisher's name on every document moved, the set's version as the history's actor.
    const author = { subject: dataMoveActor(version), name: request.by, email: null, mobile: null };
    if (request.restores !== undefined)
      await undoDataMoves(trx, { restored: request.restores, newest: version - 1, author });
    decided = await verdict(trx, files, { ...options, documents: true, writer: { trx, author } });
    if (decided.problems.length > 0) throw new DefinitionsError(decided.problems);
  });
  const { bundle } = decided ?? {};
  if (!decided || !bundle) throw new Error('a set was recorded without its verdict');
  return { set, verdict: { ...decided, bundle } };
}
