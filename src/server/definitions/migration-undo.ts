import { isDeepStrictEqual } from 'node:util';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { DATA_MOVED, DATA_RESTORED, undoDataMove } from '../documents/data-moves';
import { recordedMoves, writeMovedData } from '../documents/store/data-moves';
import type { VersionAuthor } from '../documents/store/rows';

/**
 * Who a data move is by, in the history: the set version whose publish made it (its `actor`),
 * under the publisher's name. A restore finds the moves to take back by it.
 */
export const dataMoveActor = (version: number) => `definitions-version-${version}`;

/**
 * A restore of version `restored` over the newest, `newest`: the data moves made by the publishes
 * between them are taken back, newest first. Each moved document has the fields the move changed
 * given back their value from before it (the version before the move keeps it); what was written
 * since in other fields stays. A document already as it was is left alone.
 */
export async function undoDataMoves(
  trx: Transaction<Database>,
  { restored, newest, author }: { restored: number; newest: number; author: VersionAuthor },
): Promise<number> {
  let undone = 0;
  for (let version = newest; version > restored; version -= 1) {
    for (const move of await recordedMoves(trx, DATA_MOVED, dataMoveActor(version))) {
      const data = undoDataMove(move.current.data, move.before, move.after);
      if (isDeepStrictEqual(data, move.current.data)) continue;
      const document = { id: move.id, status: move.status, version: move.current.version };
      await writeMovedData(trx, document, data, { action: DATA_RESTORED, author });
      undone += 1;
    }
  }
  return undone;
}
