import type { Transaction } from 'kysely';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { resolvePointer, setAt } from '../../core/rules/registry';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { invalid } from '../search/compile-search';
import type { EffectContext } from './effect-context';
import { writeFlag } from './store/case-work';
import { findReferenced } from './store/lookups';
import { referringInStatuses } from './store/referring';
import type { DocumentRow } from './store/rows';

/*
 * Renewals and documents naming a document (docs/workflows.md, "Renewals, suspensions and
 * documents naming a document"): a document of a workflow declaring `renewal` may renew another
 * of its type, which keeps its number and takes the renewal's period; `referencedBy` names the
 * documents of other types that hold this one's reference, listed on its screen and flagged by
 * `flagReferring` when it stops being valid.
 */

/** What a document names another by: the text at `by`, else its number. */
export function referenceOf(
  by: string | undefined,
  document: { number: string | null; data: Record<string, unknown> },
): string | undefined {
  const value = by ? resolvePointer(document.data, by) : document.number;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The reference a renewal holds of the document it renews; none for a first application. */
export function renewedReference(
  workflow: WorkflowDefinition,
  data: Record<string, unknown>,
): string | undefined {
  const link = workflow.renewal?.link;
  const value = link ? resolvePointer(data, link) : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The document a renewal renews, locked as asked; undefined for a document renewing none. */
export async function renewedDocument(
  trx: Transaction<Database>,
  workflow: WorkflowDefinition,
  data: Record<string, unknown>,
  lock?: 'share' | 'update',
): Promise<Pick<DocumentRow, 'id' | 'status' | 'data'> | undefined> {
  const reference = renewedReference(workflow, data);
  if (!reference) return undefined;
  return findReferenced(trx, workflow.id, reference, workflow.renewal?.by, lock);
}

/**
 * The data a renewal starts with: the sections `copy` names of the document it renews, which its
 * owner must hold in a status `statuses` allows (else 403 / 409, nothing created).
 */
export function renewalStart(
  workflow: WorkflowDefinition,
  source: DocumentRow,
  principal: Principal,
): { data: Record<string, unknown>; link: string; reference: string } {
  const renewal = workflow.renewal;
  if (!renewal) throw new Error(`Workflow ${workflow.id} declares no renewal`);
  if (source.owner !== principal.subject) throw new ApiProblem(403, ERROR_CODES.notOwner);
  const reference = referenceOf(renewal.by, source);
  if (!renewal.statuses.includes(source.status) || !reference)
    throw new ApiProblem(409, ERROR_CODES.actionNotAllowed, {
      action: renewal.start,
      status: source.status,
    });
  const data: Record<string, unknown> = {};
  for (const section of renewal.copy)
    if (source.data[section] !== undefined) data[section] = structuredClone(source.data[section]);
  return { data, link: renewal.link, reference };
}

/** The `from` of a request starting a renewal: the renewed document's id. */
export function renewalFrom(from: unknown): string {
  if (typeof from !== 'string' || from.trim() === '')
    throw invalid([{ path: '/from', rule: 'required' }]);
  return from;
}

/** The day after a date (YYYY-MM-DD). */
function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/**
 * Where a grant's period starts: today, or for a renewal the day after the renewed document's
 * validity ends when that is later (renewed early, no day is lost; renewed late, none is
 * given back). The renewed row is locked: two renewals granted together queue on it.
 */
export async function validityStart(
  trx: Transaction<Database>,
  workflow: WorkflowDefinition,
  data: Record<string, unknown>,
  today: string,
): Promise<string> {
  const until = workflow.validity?.until;
  const renewed = until ? await renewedDocument(trx, workflow, data, 'update') : undefined;
  const ends = renewed && until ? resolvePointer(renewed.data, until) : undefined;
  if (typeof ends !== 'string' || ends.length < 10) return today;
  const next = dayAfter(ends.slice(0, 10));
  return next > today ? next : today;
}

/** The renewed document takes the end of validity its renewal was granted (`fires`' effect). */
export function extendValidity({ workflow, document, cause }: EffectContext): void {
  const until = workflow.validity?.until;
  if (!until || !cause?.data)
    throw new Error(`Workflow ${workflow.id}: extendValidity needs a renewal`);
  const ends = resolvePointer(cause.data, until);
  if (typeof ends === 'string' && ends !== '') setAt(document.data, until, ends);
}

/**
 * Flags the documents naming this one (`referencedBy` declaring a `flag`) that stand in the
 * flag's statuses: a suspended permission's holders reviewed. Each flag set is a history line of
 * the flagged document, by the person acting; one already set stays as it is.
 */
export async function flagReferring({ trx, workflow, document, principal }: EffectContext) {
  const author = {
    subject: principal.subject,
    name: principal.name ?? principal.preferredUsername ?? principal.subject,
    email: principal.email ?? null,
    mobile: principal.phoneNumber ?? null,
  };
  for (const referring of Object.values(workflow.referencedBy ?? {})) {
    const flag = referring.flag;
    const reference = referenceOf(referring.by, document);
    if (!flag || !reference) continue;
    const rows = await referringInStatuses(
      trx,
      referring.type,
      referring.pointer,
      reference,
      flag.statuses,
    );
    for (const row of rows) await writeFlag(trx, row, flag.name, true, author);
  }
}
