import type { Kysely, Transaction } from 'kysely';

/** What to do once a transaction has committed, by transaction. */
const pending = new WeakMap<object, Array<() => void>>();

/**
 * Runs `callback` once `trx` has committed (never if it rolls back), for what this process keeps
 * in memory about rows the transaction wrote: its own change must be known here as soon as the
 * caller has its answer, not when the database's notice comes back. Only for transactions
 * opened by `inTransaction`; any other's callbacks are dropped with it.
 */
export function afterCommit(
  trx: Transaction<unknown> | Kysely<unknown>,
  callback: () => void,
): void {
  const list = pending.get(trx) ?? [];
  list.push(callback);
  pending.set(trx, list);
}

/** `db.transaction().execute(work)`, then what `afterCommit` asked for, in order. */
export async function inTransaction<D, T>(
  db: Kysely<D>,
  work: (trx: Transaction<D>) => Promise<T>,
): Promise<T> {
  let opened: Transaction<D> | undefined;
  const result = await db.transaction().execute((trx) => {
    opened = trx;
    return work(trx);
  });
  const callbacks = opened ? (pending.get(opened) ?? []) : [];
  if (opened) pending.delete(opened);
  for (const callback of callbacks) callback();
  return result;
}
