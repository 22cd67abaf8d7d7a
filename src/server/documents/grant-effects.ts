import type { Transaction } from 'kysely';
import { resolvePointer, setAt } from '../../core/rules/registry';
import type { Database } from '../db/schema';
import { entriesValidAt } from '../catalog/valid-at';
import { invalid } from '../search/compile-search';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { EffectContext } from './effect-context';
import { REFERENCE_POINTER } from '../../core/documents/conventions';
import { nextNumber as nextInSequence } from './store/numbering';
import { renewedReference, validityStart } from './renewals';

/** The next number of the workflow's `numbering` for a document of `type`, from its sequence. */
export function nextNumber(
  trx: Transaction<Database>,
  workflow: Pick<WorkflowDefinition, 'numbering'>,
  type: string,
  now: Date,
): ReturnType<typeof nextInSequence> {
  const { prefix = type.toUpperCase(), digits } = workflow.numbering ?? {};
  return nextInSequence(trx, type, { prefix, digits }, now);
}

/** The workflow's `reference` number, given once (a sponsorship number at grant), own sequence. */
export async function allocateReference(context: EffectContext): Promise<void> {
  const { trx, workflow, document, now } = context;
  if (!workflow.reference) throw new Error(`Workflow ${workflow.id} has no reference numbering`);
  if (typeof resolvePointer(document.data, REFERENCE_POINTER) === 'string') return;
  // A renewal gives none: the document it renews keeps its own (renewals.ts).
  if (renewedReference(workflow, document.data)) return;
  const { number } = await nextInSequence(
    trx,
    `${document.type}:reference`,
    workflow.reference,
    now,
  );
  setAt(document.data, REFERENCE_POINTER, number);
}

const UNITS = new Set(['DAY', 'WEEK', 'MONTH', 'YEAR']);

/**
 * The last day of a period of `count` units from `from` (YYYY-MM-DD): the day before the same date
 * `count` units later, or the month's last day when there is no such date (31 January + 1 month).
 */
export function lastDayOf(from: string, unit: string, count: number): string {
  const date = new Date(`${from}T00:00:00Z`);
  if (unit === 'DAY' || unit === 'WEEK') {
    date.setUTCDate(date.getUTCDate() + (unit === 'WEEK' ? 7 : 1) * count - 1);
    return date.toISOString().slice(0, 10);
  }
  const months = unit === 'YEAR' ? 12 * count : count;
  const day = date.getUTCDate();
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const daysInMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end =
    day > daysInMonth
      ? new Date(Date.UTC(year, month, daysInMonth))
      : new Date(Date.UTC(year, month, day - 1));
  return end.toISOString().slice(0, 10);
}

/** Dates a grant from today to the end of the chosen `validity`; no length: 400 on its field. */
export async function setValidity({ trx, workflow, document, now }: EffectContext): Promise<void> {
  const validity = workflow.validity;
  if (!validity) throw new Error(`Workflow ${workflow.id} has no validity`);
  const code = resolvePointer(document.data, validity.period);
  if (typeof code !== 'string' || code === '')
    throw invalid([{ path: validity.period, rule: 'required' }]);
  const [entry] = await entriesValidAt(trx, validity.periods.catalog, now, [code]);
  const unit = entry?.data[validity.periods.unit];
  const count = entry?.data[validity.periods.count];
  if (typeof unit !== 'string' || !UNITS.has(unit) || typeof count !== 'number' || count < 1)
    throw invalid([{ path: validity.period, rule: 'validityPeriod', params: { code } }]);
  // From today; a renewal's from the end of what it renews when later (renewals.ts).
  const from = await validityStart(trx, workflow, document.data, now.toISOString().slice(0, 10));
  setAt(document.data, validity.from, from);
  setAt(document.data, validity.until, lastDayOf(from, unit, count));
}
