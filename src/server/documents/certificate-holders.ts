import { isNode as isObject } from '../../core/definitions/json';
import { resolvePointer, setAt } from '../../core/rules/registry';
import { catalogsIn } from '../catalog/valid-at';
import { listsCharged } from '../payments/fees';
import { personRefused } from '../../core/documents/person-decisions';
import type { EffectContext } from './effect-context';
import { nextNumber } from './grant-effects';
import { removeAt } from './reference-fills';

/* The people of a list who each get a certificate (`certificate.holders`), numbered at issue. */

/**
 * Numbers each certificate holder of the list (or with `charged` those the frozen fees charged)
 * from the documents' sequence, at `holders.number`, replacing whatever the form sent there;
 * a person refused (`persons`) gets none.
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
  // A person refused by a decision per person (`persons` over the same list) holds none.
  const decided = workflow.persons?.list === holders.list ? workflow.persons : undefined;
  for (const [index, item] of list.entries()) {
    if (!isObject(item)) continue;
    if (!numbered || personRefused(decided, document.data, index + 1))
      removeAt(item, holders.number);
    else setAt(item, holders.number, (await nextNumber(trx, workflow, document.type, now)).number);
  }
}
