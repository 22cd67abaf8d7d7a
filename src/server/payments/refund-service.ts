import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { fromCents, toCents } from '../../core/payments/money';
import {
  REFUND_REASONS,
  type DocumentRefunds,
  type RefundMethod,
  type RefundView,
} from '../../core/payments/refunds';
import { translate, type Language } from '../../core/i18n/translate';
import { resolvePointer } from '../../core/rules/registry';
import { formatMoney } from '../../core/format';
import type { WorkflowDefinition, WorkflowRefunds } from '../../core/documents/workflow';
import { fullRoles } from '../../core/documents/workflow';
import { holdsAnyRole, type Principal } from '../auth/principal';
import type { Database, PaymentRefundTable } from '../db/schema';
import type { DocumentService } from '../documents/service';
import type { EffectContext } from '../documents/effect-context';
import { messageOwner } from '../documents/effects';
import { holderLanguageOf } from '../documents/holder-language';
import { portalUrl } from '../documents/certificate';
import { noticePath } from '../documents/notice-path';
import { draftOf, findDocument } from '../documents/store/rows';
import { numbersOf } from '../documents/store/lookups';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { FrozenFees } from './fees';
import type { PaymentGateway, RefundReport } from './gateway';
import { openRefund, type OpenedRefund } from './refunds';
import { RefusedReport } from './service';

type RefundRow = Selectable<PaymentRefundTable>;

/** Who the history and the logs name when the gateway's word completes a refund. */
const REFUND_GATEWAY_ACTOR: Principal = {
  subject: 'system:payment-gateway',
  roles: [],
  name: 'system:payment-gateway',
};

/** What a caller asks for; the service decides the rest (method, order, status, language). */
export interface RefundAsk {
  /** Cents to give back; absent, all that is left of what was paid. */
  amountCents?: number;
  /** One of REFUND_REASONS. */
  reason: string;
  note?: string;
  /** The same key twice is the same refund. */
  idempotencyKey?: string;
}

/** What an action's effect has: its transaction, workflow, document, actor and environment. */
export type RefundContext = Pick<
  EffectContext,
  'trx' | 'workflow' | 'document' | 'principal' | 'environment'
>;

export type RequestedRefund = Extract<OpenedRefund, { opened: true }> & {
  status: 'PENDING_APPROVAL' | 'REQUESTED';
};

/** What was paid for a document, and how: the approved card order, else a settled invoice. */
interface Paid {
  method: RefundMethod;
  orderId?: string;
  cents: number;
  currency: string;
  receiptReference: string;
}

/**
 * Opens a refund of the document of an action, in the action's transaction (the one way in,
 * `openRefund`, under its per-document lock), with the status its workflow's `payment.refunds`
 * gives: above `approvalAbove` it waits for approval (PENDING_APPROVAL), else it is REQUESTED.
 * A card refund REQUESTED is sent to the gateway after the transaction commits: by the refund
 * sender, which this wakes (and which polls, so a commit it did not see is sent all the same).
 * Refused with 409 (a refund is open, nothing was paid, refunds not declared) or 422 (more
 * than is left), which rolls the action back.
 */
export async function requestRefundInAction(
  context: RefundContext,
  ask: RefundAsk,
  now: Date = new Date(),
): Promise<RequestedRefund> {
  const { trx, workflow, document, principal, environment } = context;
  const refunds = workflow.payment?.refunds;
  if (!workflow.payment || !refunds) throw new ApiProblem(409, ERROR_CODES.refundNotPossible);
  if (!(REFUND_REASONS as readonly string[]).includes(ask.reason))
    throw new ApiProblem(400, ERROR_CODES.validationFailed, {}, [
      { path: '/reason', rule: 'enum', params: { allowedValues: [...REFUND_REASONS] } },
    ]);
  const paid = await paidFor(trx, workflow, document.id, document.data);
  if (!paid) throw new ApiProblem(409, ERROR_CODES.refundNotPossible);
  const refunded = await countedCents(trx, document.id);
  const amountCents = ask.amountCents ?? paid.cents - refunded;
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    throw new ApiProblem(422, ERROR_CODES.refundExceedsPaid, {
      available: fromCents(Math.max(0, paid.cents - refunded)),
      currency: paid.currency,
    });
  const threshold = toCents(refunds.approvalAbove) ?? 0;
  const status = amountCents > threshold ? 'PENDING_APPROVAL' : 'REQUESTED';
  const language = await holderLanguageOf(trx, environment.accounts, workflow, document);
  const opened = await openRefund(
    trx,
    {
      documentType: document.type,
      documentId: document.id,
      ...(paid.orderId ? { orderId: paid.orderId } : {}),
      method: paid.method,
      currency: paid.currency,
      amountCents,
      paidCents: paid.cents,
      reason: ask.reason,
      ...(ask.note ? { note: ask.note } : {}),
      ...(ask.idempotencyKey ? { idempotencyKey: ask.idempotencyKey } : {}),
      requestedBy: principal.subject,
      status,
      language,
    },
    now,
  );
  if (!opened.opened) {
    if (opened.refusal === 'refundOpen') throw new ApiProblem(409, ERROR_CODES.refundOpen);
    const left = await countedCents(trx, document.id);
    throw new ApiProblem(422, ERROR_CODES.refundExceedsPaid, {
      available: fromCents(Math.max(0, paid.cents - left)),
      currency: paid.currency,
    });
  }
  const row = await trx
    .selectFrom('payment_refund')
    .select('status')
    .where('id', '=', opened.id)
    .executeTakeFirstOrThrow();
  if (row.status === 'REQUESTED') setTimeout(wakeRefundSenders, SEND_AFTER_COMMIT_MS).unref?.();
  return { ...opened, status: row.status === 'PENDING_APPROVAL' ? 'PENDING_APPROVAL' : status };
}

/** How long after an action's effect the senders look: its transaction has committed by then. */
const SEND_AFTER_COMMIT_MS = 250;
const senders = new Set<() => void>();

/** Asks every running refund sender to look for refunds to send now. */
export function wakeRefundSenders(): void {
  for (const wake of senders) wake();
}

export interface RefundServiceOptions {
  db: Kysely<Database>;
  documents: DocumentService;
  gateway: PaymentGateway;
  publicUrl: string;
  /** Every workflow served: the approvers' list spans those that declare refunds. */
  workflows: readonly WorkflowDefinition[];
  log?: { warn: (fields: object, message: string) => void };
  /** How often REQUESTED card refunds not yet acknowledged by the gateway are (re)sent. */
  sendIntervalMs?: number;
}

/** A refund sent but not acknowledged is sent again (same idempotency key) after this. */
const RESEND_AFTER_MS = 60_000;

/**
 * Refunds of paid documents (docs/payments.md, "Refunds"): opened by officers or by actions,
 * approved by a second officer above the workflow's threshold, sent to the gateway after their
 * transaction commits, completed once by the gateway's signed notification (or, for a refund by
 * bank transfer, by an officer recording the transfer), with a notice to the holder.
 */
export class RefundService {
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  private readonly wake = () => void this.sendDue();

  constructor(private readonly options: RefundServiceOptions) {}

  /** Starts the sender: it polls, and actions' refunds wake it once committed. */
  start(): void {
    senders.add(this.wake);
    const every = this.options.sendIntervalMs ?? 30_000;
    this.timer = setInterval(this.wake, every);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    senders.delete(this.wake);
    if (this.timer) clearInterval(this.timer);
    await this.sending;
  }

  /** An officer's refund of a paid document (requesters' role), sent once committed. */
  async request(
    type: string,
    id: string,
    principal: Principal,
    ask: RefundAsk,
  ): Promise<RefundView> {
    const workflow = this.workflowWithRefunds(type);
    if (!holdsAnyRole(principal, requesterRoles(workflow)))
      throw new ApiProblem(403, ERROR_CODES.forbidden);
    // The caller must see the document: an unknown id and one they may not read are alike.
    await this.options.documents.read(type, principal, id);
    const opened = await this.options.db.transaction().execute(async (trx) => {
      const row = await findDocument(trx, type, id);
      if (!row) throw new ApiProblem(404, ERROR_CODES.notFound);
      const environment = this.options.documents.effectEnvironment;
      const document = draftOf(row);
      return requestRefundInAction({ trx, workflow, document, principal, environment }, ask);
    });
    if (opened.status === 'REQUESTED') await this.send(opened.id);
    return this.view(opened.id, principal);
  }

  /** A document's refunds for whoever may read it (its owner, officers who see it). */
  async listOf(type: string, id: string, principal: Principal): Promise<DocumentRefunds> {
    const workflow = this.options.documents.workflow(type).definition;
    const document = await this.options.documents.read(type, principal, id);
    const rows = await this.options.db
      .selectFrom('payment_refund')
      .selectAll()
      .where('document_id', '=', document.id)
      .orderBy('requested_at', 'desc')
      .orderBy('refund_number', 'desc')
      .execute();
    const paid = await paidFor(this.options.db, workflow, document.id, document.data);
    const refunded = await countedCents(this.options.db, document.id);
    const refunds = workflow.payment?.refunds;
    const number = new Map([[document.id, { number: document.number ?? null, type }]]);
    return {
      refunds: rows.map((row) => refundView(row, number, principal)),
      paid: paid ? fromCents(paid.cents) : null,
      refunded: fromCents(refunded),
      available: fromCents(paid ? Math.max(0, paid.cents - refunded) : 0),
      currency: paid?.currency ?? null,
      method: paid?.method ?? null,
      approvalAbove: refunds?.approvalAbove ?? null,
      canRequest: !!refunds && holdsAnyRole(principal, requesterRoles(workflow)),
      canApprove: !!refunds && holdsAnyRole(principal, fullRoles(workflow, refunds.approvers)),
    };
  }

  /** The refunds waiting for approval of every workflow whose approvers' role the caller holds. */
  async awaitingApproval(principal: Principal): Promise<RefundView[]> {
    const types = this.refundTypes().filter((workflow) =>
      holdsAnyRole(principal, fullRoles(workflow, workflow.payment!.refunds!.approvers)),
    );
    if (types.length === 0) throw new ApiProblem(403, ERROR_CODES.forbidden);
    const rows = await this.options.db
      .selectFrom('payment_refund')
      .selectAll()
      .where('status', '=', 'PENDING_APPROVAL')
      .where(
        'document_type',
        'in',
        types.map((workflow) => workflow.id),
      )
      .orderBy('requested_at')
      .limit(500)
      .execute();
    const numbers = await numbersOf(
      this.options.db,
      rows.map((row) => row.document_id),
    );
    return rows.map((row) => refundView(row, numbers, principal));
  }

  /** Approves a refund waiting for approval: not its requester (four eyes); sent once committed. */
  async approve(refundId: string, principal: Principal, reason: string): Promise<RefundView> {
    const decided = await this.decide(refundId, principal, reason, 'REQUESTED');
    if (decided.method === 'card') await this.send(refundId);
    return this.view(refundId, principal);
  }

  /** Rejects a refund waiting for approval, with the reason; nothing is given back. */
  async reject(refundId: string, principal: Principal, reason: string): Promise<RefundView> {
    await this.decide(refundId, principal, reason, 'REJECTED');
    return this.view(refundId, principal);
  }

  /** A refund by bank transfer done: an officer records the transfer's reference. */
  async recordTransfer(
    refundId: string,
    principal: Principal,
    reference: string,
  ): Promise<RefundView> {
    await this.options.db.transaction().execute(async (trx) => {
      const refund = await this.locked(trx, refundId);
      const workflow = this.workflowWithRefunds(refund.document_type);
      if (!holdsAnyRole(principal, requesterRoles(workflow)))
        throw new ApiProblem(403, ERROR_CODES.forbidden);
      if (refund.method !== 'transfer' || refund.status !== 'REQUESTED')
        throw new ApiProblem(409, ERROR_CODES.refundNotRequested, {
          number: refund.refund_number,
        });
      await trx
        .updateTable('payment_refund')
        .set({
          status: 'REFUNDED',
          transfer_reference: reference,
          completed_at: new Date().toISOString(),
        })
        .where('id', '=', refund.id)
        .execute();
      await this.noticeCompleted(trx, { ...refund, status: 'REFUNDED' });
    });
    return this.view(refundId, principal);
  }

  /** A refund as its reader may see it (the document's readers). */
  async view(refundId: string, principal: Principal): Promise<RefundView> {
    const row = await this.rowVisibleTo(refundId, principal);
    const numbers = await numbersOf(this.options.db, [row.document_id]);
    return refundView(row, numbers, principal);
  }

  /** What the refund's receipt says, in the holder's language (the refund's); 404 before done. */
  async receipt(
    refundId: string,
    principal: Principal,
    titleIn: (type: string, language: Language) => string,
  ): Promise<RefundReceiptData> {
    const row = await this.rowVisibleTo(refundId, principal);
    if (row.status !== 'REFUNDED' || !row.completed_at)
      throw new ApiProblem(404, ERROR_CODES.notFound);
    const document = await findDocument(this.options.db, row.document_type, row.document_id);
    if (!document) throw new ApiProblem(404, ERROR_CODES.notFound);
    const workflow = this.options.documents.workflow(row.document_type).definition;
    const paid = await paidFor(this.options.db, workflow, row.document_id, document.data);
    const language: Language = row.language === 'fr' ? 'fr' : 'en';
    return {
      language,
      refundNumber: row.refund_number,
      completedAt: new Date(row.completed_at).toISOString(),
      documentNumber: document.number ?? '',
      documentTitle: titleIn(row.document_type, language),
      holderName: document.owner_name ?? '',
      amount: fromCents(Number(row.amount_cents)),
      currency: row.currency,
      method: row.method,
      reason: row.reason,
      receiptReference: paid?.receiptReference ?? '',
      transferReference: row.transfer_reference,
    };
  }

  /** A signed refund notification from the gateway (server to server), applied once. */
  async notify(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<string> {
    const report = this.options.gateway.verifyRefundNotification(rawBody, headers);
    if (!report) throw new ForgedReport();
    if (report.outcome === 'PENDING')
      return this.apply(await this.options.gateway.queryRefund(report.refundId));
    return this.apply(report);
  }

  /**
   * Applies a gateway's refund report, once: it must name a refund of ours sent on that
   * payment, with exactly its amount and currency; a refund already final is left as it is.
   */
  async apply(report: RefundReport): Promise<string> {
    return this.options.db.transaction().execute(async (trx) => {
      const refund = await trx
        .selectFrom('payment_refund')
        .selectAll()
        .where('refund_number', '=', report.refundReference)
        .forUpdate()
        .executeTakeFirst();
      if (!refund || refund.method !== 'card' || !refund.order_id)
        throw new RefusedReport(`unknown refund ${report.refundReference}`);
      const order = await trx
        .selectFrom('payment_order')
        .select(['gateway', 'gateway_session'])
        .where('id', '=', refund.order_id)
        .executeTakeFirstOrThrow();
      if (order.gateway !== this.options.gateway.id || order.gateway_session !== report.sessionId)
        throw new RefusedReport(`refund ${refund.refund_number} is not of ${report.sessionId}`);
      if (refund.gateway_refund_id && refund.gateway_refund_id !== report.refundId)
        throw new RefusedReport(`refund ${refund.refund_number} is not ${report.refundId}`);
      if (report.amountCents !== Number(refund.amount_cents) || report.currency !== refund.currency)
        throw new RefusedReport(
          `refund ${refund.refund_number}: ${report.currency} ${report.amountCents} cents reported, ${refund.currency} ${refund.amount_cents} asked`,
        );
      if (refund.status !== 'REQUESTED') return refund.status;
      if (report.outcome === 'PENDING') return refund.status;
      const done = await trx
        .updateTable('payment_refund')
        .set({
          status: report.outcome,
          gateway: this.options.gateway.id,
          gateway_refund_id: report.refundId,
          completed_at: report.outcome === 'REFUNDED' ? new Date().toISOString() : null,
        })
        .where('id', '=', refund.id)
        .where('status', '=', 'REQUESTED')
        .returningAll()
        .executeTakeFirst();
      if (done?.status === 'REFUNDED') await this.noticeCompleted(trx, done);
      return report.outcome;
    });
  }

  /** Sends every REQUESTED card refund the gateway has not acknowledged (the sender's round). */
  async sendDue(): Promise<void> {
    if (this.sending) return this.sending;
    this.sending = (async () => {
      try {
        const due = await this.options.db
          .selectFrom('payment_refund')
          .select('id')
          .where('status', '=', 'REQUESTED')
          .where('method', '=', 'card')
          .where('gateway_refund_id', 'is', null)
          .where((eb) =>
            eb.or([
              eb('sent_at', 'is', null),
              eb('sent_at', '<', new Date(Date.now() - RESEND_AFTER_MS)),
            ]),
          )
          .orderBy('requested_at')
          .limit(50)
          .execute();
        for (const { id } of due) await this.send(id);
      } catch (error) {
        this.options.log?.warn({ err: error }, 'refund sender failed');
      } finally {
        this.sending = undefined;
      }
    })();
    return this.sending;
  }

  /**
   * Sends one REQUESTED card refund to the gateway, keyed by the refund's id: sent twice (two
   * senders, a retry), the gateway refunds once. A refusal is logged and the refund stays
   * REQUESTED, tried again later; the holder's money is never counted twice meanwhile.
   */
  async send(refundId: string): Promise<void> {
    const refund = await this.options.db
      .selectFrom('payment_refund')
      .innerJoin('payment_order', 'payment_order.id', 'payment_refund.order_id')
      .select([
        'payment_refund.id',
        'payment_refund.refund_number',
        'payment_refund.status',
        'payment_refund.amount_cents',
        'payment_refund.currency',
        'payment_refund.gateway_refund_id',
        'payment_order.gateway_session',
        'payment_order.transaction_id',
      ])
      .where('payment_refund.id', '=', refundId)
      .where('payment_refund.method', '=', 'card')
      .executeTakeFirst();
    if (!refund || refund.status !== 'REQUESTED' || refund.gateway_refund_id) return;
    if (!refund.gateway_session) return;
    await this.options.db
      .updateTable('payment_refund')
      .set({ sent_at: new Date().toISOString(), gateway: this.options.gateway.id })
      .where('id', '=', refund.id)
      .execute();
    try {
      const report = await this.options.gateway.createRefund({
        refundReference: refund.refund_number,
        sessionId: refund.gateway_session,
        ...(refund.transaction_id ? { orderTransactionId: refund.transaction_id } : {}),
        amountCents: Number(refund.amount_cents),
        currency: refund.currency,
        notifyUrl: `${this.options.publicUrl}/api/payments/notify/${this.options.gateway.id}/refunds`,
        idempotencyKey: refund.id,
      });
      await this.options.db
        .updateTable('payment_refund')
        .set({ gateway_refund_id: report.refundId })
        .where('id', '=', refund.id)
        .where('gateway_refund_id', 'is', null)
        .execute();
      // A gateway that answers at once with the outcome (a re-send of a done refund).
      if (report.outcome !== 'PENDING') await this.apply(report);
    } catch (error) {
      this.options.log?.warn(
        { refund: refund.refund_number, err: error, actor: REFUND_GATEWAY_ACTOR.subject },
        'refund not accepted by the gateway; it will be sent again',
      );
    }
  }

  // --- inside ---

  private async decide(
    refundId: string,
    principal: Principal,
    reason: string,
    to: 'REQUESTED' | 'REJECTED',
  ): Promise<RefundRow> {
    return this.options.db.transaction().execute(async (trx) => {
      const refund = await this.locked(trx, refundId);
      const workflow = this.workflowWithRefunds(refund.document_type);
      const refunds = workflow.payment!.refunds!;
      if (!holdsAnyRole(principal, fullRoles(workflow, refunds.approvers)))
        throw new ApiProblem(403, ERROR_CODES.forbidden);
      if (refund.status !== 'PENDING_APPROVAL')
        throw new ApiProblem(409, ERROR_CODES.refundNotPending, { number: refund.refund_number });
      // Four eyes: whoever asked for the money to go out does not also let it go.
      if (to === 'REQUESTED' && refund.requested_by === principal.subject)
        throw new ApiProblem(403, ERROR_CODES.refundOwnApproval, { number: refund.refund_number });
      const decided = await trx
        .updateTable('payment_refund')
        .set({
          status: to,
          decided_by: principal.subject,
          decided_at: new Date().toISOString(),
          decision_reason: reason,
        })
        .where('id', '=', refund.id)
        .where('status', '=', 'PENDING_APPROVAL')
        .returningAll()
        .executeTakeFirst();
      if (!decided)
        throw new ApiProblem(409, ERROR_CODES.refundNotPending, { number: refund.refund_number });
      return decided;
    });
  }

  private async locked(trx: Transaction<Database>, refundId: string): Promise<RefundRow> {
    if (!UUID_TEXT.test(refundId)) throw new ApiProblem(404, ERROR_CODES.notFound);
    const refund = await trx
      .selectFrom('payment_refund')
      .selectAll()
      .where('id', '=', refundId)
      .forUpdate()
      .executeTakeFirst();
    if (!refund) throw new ApiProblem(404, ERROR_CODES.notFound);
    return refund;
  }

  /** The refund, if its document is one the caller may read (else 404, as an unknown one). */
  private async rowVisibleTo(refundId: string, principal: Principal): Promise<RefundRow> {
    if (!UUID_TEXT.test(refundId)) throw new ApiProblem(404, ERROR_CODES.notFound);
    const row = await this.options.db
      .selectFrom('payment_refund')
      .selectAll()
      .where('id', '=', refundId)
      .executeTakeFirst();
    if (!row) throw new ApiProblem(404, ERROR_CODES.notFound);
    const workflow = this.options.documents.workflow(row.document_type);
    // Approvers see what they approve, whether or not they see the document otherwise.
    const approvers = workflow.definition.payment?.refunds?.approvers ?? [];
    if (holdsAnyRole(principal, fullRoles(workflow.definition, approvers))) return row;
    if (!holdsAnyRole(principal, workflow.anyRole)) throw new ApiProblem(404, ERROR_CODES.notFound);
    await this.options.documents.read(row.document_type, principal, row.document_id).catch(() => {
      throw new ApiProblem(404, ERROR_CODES.notFound);
    });
    return row;
  }

  /** The holder is told in their language (the refund's) that the money was given back. */
  private async noticeCompleted(trx: Transaction<Database>, refund: RefundRow): Promise<void> {
    const row = await findDocument(trx, refund.document_type, refund.document_id);
    if (!row) return;
    const workflow = this.options.documents.workflow(refund.document_type).definition;
    const environment = this.options.documents.effectEnvironment;
    const document = draftOf(row);
    const language: Language = refund.language === 'fr' ? 'fr' : 'en';
    const t = (key: string, params?: Record<string, unknown>) =>
      translate(environment.texts, language, key, params);
    const params = {
      refund: refund.refund_number,
      number: row.number ?? row.id,
      title: t(`${workflow.document}._title`),
      amount: formatMoney(fromCents(Number(refund.amount_cents)), language, refund.currency),
      method: t(`refund.methods.${refund.method}`),
    };
    const link = portalUrl(environment.publicUrl, noticePath(workflow, document));
    const body = [
      row.owner_name ? t('notices.greeting', { name: row.owner_name }) : '',
      t('refund.notice.body', params),
      t('notices.link', { link }),
    ]
      .filter(Boolean)
      .join('\n');
    const context = { trx, workflow, document, principal: REFUND_GATEWAY_ACTOR, environment };
    await messageOwner(context, { subject: t('refund.notice.subject', params), body, language });
  }

  private workflowWithRefunds(type: string): WorkflowDefinition & {
    payment: { refunds: WorkflowRefunds };
  } {
    const workflow = this.options.documents.workflow(type).definition;
    if (!workflow.payment?.refunds) throw new ApiProblem(404, ERROR_CODES.notFound);
    return workflow as WorkflowDefinition & { payment: { refunds: WorkflowRefunds } };
  }

  private refundTypes(): WorkflowDefinition[] {
    return [...this.options.workflows].filter((workflow) => workflow.payment?.refunds);
  }
}

/** A notification whose signature is not the gateway's (answered 401, logged). */
export class ForgedReport extends Error {
  constructor() {
    super('bad signature');
  }
}

/** What a refund's receipt prints. */
export interface RefundReceiptData {
  language: Language;
  refundNumber: string;
  completedAt: string;
  documentNumber: string;
  documentTitle: string;
  holderName: string;
  amount: string;
  currency: string;
  method: RefundMethod;
  reason: string;
  receiptReference: string;
  transferReference: string | null;
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function requesterRoles(workflow: WorkflowDefinition): string[] {
  const refunds = workflow.payment?.refunds;
  if (!refunds) return [];
  return fullRoles(workflow, refunds.requesters ?? refunds.approvers);
}

/** What was paid for the document: the approved card order, else the fees settled otherwise. */
async function paidFor(
  db: Kysely<Database> | Transaction<Database>,
  workflow: WorkflowDefinition,
  documentId: string,
  data: Record<string, unknown>,
): Promise<Paid | undefined> {
  const order = await db
    .selectFrom('payment_order')
    .select(['id', 'amount_paid_cents', 'currency', 'receipt_reference'])
    .where('document_id', '=', documentId)
    .where('status', '=', 'APPROVED')
    .executeTakeFirst();
  if (order?.amount_paid_cents)
    return {
      method: 'card',
      orderId: order.id,
      cents: Number(order.amount_paid_cents),
      currency: order.currency,
      receiptReference: order.receipt_reference ?? '',
    };
  // Paid by an invoice (bank transfer): the frozen fees say what and under which reference.
  const pointer = workflow.payment?.fees;
  const fees = pointer ? (resolvePointer(data, pointer) as FrozenFees | undefined) : undefined;
  const cents = toCents(fees?.amountPaid);
  if (!fees?.receiptReference || !cents) return undefined;
  return {
    method: 'transfer',
    cents,
    currency: fees.currency,
    receiptReference: fees.receiptReference,
  };
}

/** Cents of the document's refunds that count against what was paid. */
async function countedCents(
  db: Kysely<Database> | Transaction<Database>,
  documentId: string,
): Promise<number> {
  const row = await db
    .selectFrom('payment_refund')
    .select(sql<string>`coalesce(sum(amount_cents), 0)`.as('total'))
    .where('document_id', '=', documentId)
    .where('status', 'in', ['PENDING_APPROVAL', 'REQUESTED', 'REFUNDED'])
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

function refundView(
  row: RefundRow,
  numbers: Map<string, { number: string | null; type: string }>,
  principal: Principal,
): RefundView {
  const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);
  return {
    id: row.id,
    refundNumber: row.refund_number,
    documentType: row.document_type,
    documentId: row.document_id,
    documentNumber: numbers.get(row.document_id)?.number ?? null,
    status: row.status,
    method: row.method,
    amount: fromCents(Number(row.amount_cents)),
    currency: row.currency,
    reason: row.reason,
    note: row.note,
    requestedAt: new Date(row.requested_at).toISOString(),
    decidedAt: iso(row.decided_at),
    decisionReason: row.decision_reason,
    completedAt: iso(row.completed_at),
    transferReference: row.transfer_reference,
    requestedByMe: row.requested_by === principal.subject,
  };
}
