import { sql, type Transaction } from 'kysely';
import type { ActionRequest } from '../../core/documents/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { EntityDefinition } from '../../core/definitions/types';
import type { Principal } from '../auth/principal';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';

/** The document being changed by an action; effects edit it before it is written. */
export interface DocumentDraft {
  id: string;
  type: string;
  status: string;
  previousStatus: string | null;
  owner: string;
  ownerName: string | null;
  ownerEmail: string | null;
  assignee: string | null;
  number: string | null;
  year: number | null;
  serial: number | null;
  submittedAt: Date | null;
  data: Record<string, unknown>;
}

export interface EffectContext {
  trx: Transaction<Database>;
  workflow: WorkflowDefinition;
  /** The entity the workflow's documents follow (its schema, e.g. for defaults). */
  entity: EntityDefinition;
  action: string;
  fromStatus: string;
  document: DocumentDraft;
  request: ActionRequest;
  principal: Principal;
  now: Date;
}

export type Effect = (context: EffectContext) => Promise<void> | void;

/**
 * Effects the engine provides, referenced by name from a workflow's actions and run in order
 * inside the action's transaction (so a failure leaves nothing behind). Modules register theirs
 * with `registerEffect`, one place each.
 */
const effects = new Map<string, Effect>([
  ['allocateNumber', allocateNumber],
  ['setSubmissionDate', ({ document, now }) => void (document.submittedAt ??= now)],
  ['rememberStatus', ({ document, fromStatus }) => void (document.previousStatus = fromStatus)],
  ['setAssignee', setAssignee],
  ['assignToCaller', ({ document, principal }) => void (document.assignee = principal.subject)],
  ['clearAssignee', ({ document }) => void (document.assignee = null)],
  ['notifyOwner', notifyOwner],
]);

export function registerEffect(name: string, effect: Effect): void {
  if (effects.has(name)) throw new Error(`Effect ${name} is already registered`);
  effects.set(name, effect);
}

export function effectNames(): string[] {
  return [...effects.keys()];
}

export function getEffect(name: string): Effect {
  const effect = effects.get(name);
  if (!effect) throw new Error(`Unknown effect ${name}`);
  return effect;
}

/**
 * A gap-free number per document type and year: the counter row is incremented inside the
 * action's transaction, so a rolled-back action gives its number back.
 */
async function allocateNumber({ trx, workflow, document, now }: EffectContext): Promise<void> {
  if (document.number !== null) return;
  const year = now.getUTCFullYear();
  const row = await trx
    .insertInto('document_sequence')
    .values({ type: document.type, year, last: 1 })
    .onConflict((oc) =>
      oc.columns(['type', 'year']).doUpdateSet({ last: sql`document_sequence.last + 1` }),
    )
    .returning('last')
    .executeTakeFirstOrThrow();
  const digits = workflow.numbering?.digits ?? 6;
  const prefix = workflow.numbering?.prefix ?? document.type.toUpperCase();
  document.year = year;
  document.serial = row.last;
  document.number = `${prefix}-${year}-${String(row.last).padStart(digits, '0')}`;
}

function setAssignee({ document, request }: EffectContext): void {
  const assignee = request.assignee?.trim();
  if (!assignee) {
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/assignee', rule: 'required' },
    ]);
  }
  document.assignee = assignee;
}

/** Hands a message for the owner to the outbox: their inbox always, e-mail when known. */
async function notifyOwner({
  trx,
  document,
  action,
  fromStatus,
  request,
}: EffectContext): Promise<void> {
  const reference = document.number ?? document.id;
  const subject = `${document.type} ${reference}: ${action}`;
  const body = [
    `Your ${document.type.replaceAll('-', ' ')} ${reference} changed from ${fromStatus} to ${document.status}.`,
    request.notes ? `Notes: ${request.notes}` : '',
  ]
    .filter(Boolean)
    .join('\n');
  const rows = [{ channel: 'inbox', recipient: document.owner }];
  if (document.ownerEmail) rows.push({ channel: 'email', recipient: document.ownerEmail });
  await trx
    .insertInto('outbox')
    .values(rows.map((row) => ({ ...row, subject, body, document_id: document.id })))
    .execute();
}
