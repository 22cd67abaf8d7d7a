import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { storeDb } from './tables';

/** A number as `{prefix}-{year}-{serial}`, the serial zero-padded to `digits` (6 by default). */
export interface Numbering {
  prefix: string;
  digits?: number;
}

/**
 * The next number of `key`'s gap-free sequence in `now`'s UTC year, the counter every number comes
 * from: incremented in the caller's transaction, so writers queue and a rollback gives it back.
 */
export async function nextNumber(
  trx: Transaction<Database>,
  key: string,
  { prefix, digits = 6 }: Numbering,
  now: Date,
): Promise<{ number: string; year: number; serial: number }> {
  const year = now.getUTCFullYear();
  const { last: serial } = await storeDb(trx)
    .insertInto('document_sequence')
    .values({ type: key, year, last: 1 })
    .onConflict((oc) =>
      oc.columns(['type', 'year']).doUpdateSet({ last: sql`document_sequence.last + 1` }),
    )
    .returning('last')
    .executeTakeFirstOrThrow();
  return { number: `${prefix}-${year}-${String(serial).padStart(digits, '0')}`, year, serial };
}
