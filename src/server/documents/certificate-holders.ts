import { resolvePointer } from '../../core/rules/registry';
import { catalogsIn } from '../catalog/valid-at';
import { listsCharged } from '../payments/fees';
import type { EffectContext } from './effect-context';
import { nextNumber } from './grant-effects';

/* The people of a list who each get a certificate (`certificate.holders`), numbered at issue. */

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets (or, with `undefined`, removes) the value at a pointer inside an item. */
function setInside(item: Record<string, unknown>, pointer: string, value: string | undefined) {
  const segments = pointer.split('/').slice(1);
  const last = segments.pop();
  let at: Record<string, unknown> = item;
  for (const segment of segments) {
    const next = at[segment];
    if (!isObject(next)) {
      if (value === undefined) return;
      at[segment] = {};
    }
    at = at[segment] as Record<string, unknown>;
  }
  if (last === undefined) return;
  if (value === undefined) delete at[last];
  else at[last] = value;
}

/**
 * Numbers each certificate holder of the list (or with `charged` those the frozen fees charged)
 * from the documents' sequence, at `holders.number`, replacing whatever the form sent there.
 */
export async function allocateHolderNumbers(context: EffectContext): Promise<void> {
  const { trx, environment, workflow, document, now } = context;
  const holders = workflow.certificate?.holders;
  if (!holders) throw new Error(`Workflow ${workflow.id} declares no certificate holders`);
  const list = resolvePointer(document.data, holders.list);
  if (!Array.isArray(list)) return;
  let numbered = true;
  if (holders.charged) {
    const catalogs = environment.catalogs?.through(trx) ?? catalogsIn(trx);
    numbered =
      workflow.payment !== undefined &&
      (
        await listsCharged(catalogs, workflow.payment, document.data, document.submittedAt ?? now)
      ).has(holders.list);
  }
  for (const item of list) {
    if (!isObject(item)) continue;
    const { number } = numbered
      ? await nextNumber(trx, workflow, document.type, now)
      : { number: undefined };
    setInside(item, holders.number, number);
  }
}
