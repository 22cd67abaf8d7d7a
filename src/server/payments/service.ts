import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { fromCents } from '../../core/payments/money';
import type {
  FeeLine,
  PaymentOrderView,
  PaymentStatus,
  ReceiptData,
  RefundQuote,
} from '../../core/payments/types';
import { refundDue } from './fees';
import type { Principal } from '../auth/principal';
import type { Database, PaymentOrderTable } from '../db/schema';
import type { DocumentService } from '../documents/service';
import { documentStatus } from '../documents/store/rows';
import { nextNumber } from '../documents/store/numbering';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import type { GatewayReport, PaymentGateway } from './gateway';
import { localizedText } from '../../core/i18n/localized';
import type { Language } from '../../core/i18n/translate';

type OrderRow = Selectable<PaymentOrderTable>;

/** Who the document history names when the gateway's word changes a document. */
export const PAYMENT_GATEWAY_ACTOR: Principal = {
  subject: 'system:payment-gateway',
  roles: [],
  // Shown in the reader's language (`actors.payment-gateway`), not as stored.
  name: 'system:payment-gateway',
};

/** Where a payment stands, with the paid document's status. */
export interface PaymentState {
  documentStatus: string;
  order: PaymentOrderView | null;
}

/** A notification or query the service would not act on, and why (logged by the caller). */
export class RefusedReport extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const FINAL: readonly string[] = ['APPROVED', 'DECLINED', 'CANCELLED', 'TIMED_OUT'];

export interface PaymentServiceOptions {
  db: Kysely<Database>;
  documents: DocumentService;
  gateway: PaymentGateway;
  publicUrl: string;
}

/**
 * Payments of documents through a hosted-payment-page gateway: sends the payer to the gateway,
 * and applies each report once, in a transaction locking the order (duplicates change nothing).
 */
export class PaymentService {
  constructor(private readonly options: PaymentServiceOptions) {}

  /** The gateway's page for the document's open order (the same session for every tab). */
  async purchase(
    type: string,
    id: string,
    principal: Principal,
    language: string,
    description: string,
  ): Promise<{ redirectUrl: string }> {
    const document = await this.options.documents.read(type, principal, id);
    if (document.owner !== principal.subject) throw new ApiProblem(403, ERROR_CODES.notOwner);
    if (document.status !== 'PURCHASE INITIATED')
      throw new ApiProblem(409, ERROR_CODES.paymentNotStarted);
    const order = await this.openOrder(id);
    if (!order) throw new ApiProblem(409, ERROR_CODES.paymentNotStarted);
    if (order.gateway_redirect_url) return { redirectUrl: order.gateway_redirect_url };
    const workflow = this.options.documents.workflow(type).definition;
    // Back to the workflow's payment-integration screen, else to its finalisation screen.
    const back =
      workflow.screens.find((s) => s.mode === 'payment-integration')?.path ?? '/finalisation/:id';
    const session = await this.options.gateway.createSession({
      orderReference: order.order_reference,
      amountCents: Number(order.amount_cents),
      currency: order.currency,
      description,
      returnUrl: `${this.options.publicUrl}/#${workflow.prefix}${back.replace(':id', id)}`,
      notifyUrl: `${this.options.publicUrl}/api/payments/notify/${this.options.gateway.id}`,
      language,
    });
    // Two tabs may both get here: the first to record its session wins, the other uses it.
    const claimed = await this.options.db
      .updateTable('payment_order')
      .set({
        status: 'PENDING',
        gateway: this.options.gateway.id,
        gateway_session: session.sessionId,
        gateway_redirect_url: session.redirectUrl,
        updated_at: sql<string>`now()`,
      })
      .where('id', '=', order.id)
      .where('gateway_session', 'is', null)
      .where('status', '=', 'CREATED')
      .returning('gateway_redirect_url')
      .executeTakeFirst();
    if (claimed?.gateway_redirect_url) return { redirectUrl: claimed.gateway_redirect_url };
    const winner = await this.openOrder(id);
    if (!winner?.gateway_redirect_url) throw new ApiProblem(409, ERROR_CODES.paymentNotStarted);
    return { redirectUrl: winner.gateway_redirect_url };
  }

  /** A signed notification from the gateway (server to server). */
  async notify(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<PaymentStatus> {
    const report = this.options.gateway.verifyNotification(rawBody, headers);
    if (!report) throw new RefusedReport('bad signature');
    // A gateway whose notification only names the session (Windcave) is asked for the outcome.
    if (report.outcome === 'PENDING')
      return this.apply(await this.options.gateway.querySession(report.sessionId));
    return this.apply(report);
  }

  /** Where the document's payment stands; a pending order's gateway is asked first. */
  async state(type: string, id: string, principal: Principal): Promise<PaymentState> {
    let document = await this.options.documents.read(type, principal, id);
    let order = await this.latestOrder(id);
    if (order?.status === 'PENDING' && order.gateway_session) {
      const report = await this.options.gateway.querySession(order.gateway_session);
      if (report.outcome !== 'PENDING') {
        await this.apply(report);
        document = await this.options.documents.read(type, principal, id);
        order = await this.latestOrder(id);
      }
    }
    return { documentStatus: document.status, order: order ? orderView(order) : null };
  }

  /** What withdrawing the document would refund at its status now (`refundDue`, as opened). */
  async refundQuote(type: string, id: string, principal: Principal): Promise<RefundQuote> {
    const document = await this.options.documents.read(type, principal, id);
    const payment = this.options.documents.workflow(type).definition.payment;
    if (!payment) throw new ApiProblem(404, ERROR_CODES.notFound);
    const due = refundDue(payment, document.data, document.status);
    return {
      documentStatus: document.status,
      currency: due.currency,
      paid: fromCents(due.paidCents),
      refund: fromCents(due.refundCents),
      stage: due.stage ?? null,
    };
  }

  /** The receipt of the document's paid order, in its holder's language; 404 before. */
  async receipt(
    type: string,
    id: string,
    principal: Principal,
    titleIn: (language: Language) => string,
  ): Promise<ReceiptData & { language: Language }> {
    const document = await this.options.documents.read(type, principal, id);
    const language = await this.options.documents.holderLanguage(type, document);
    const order = await this.orders(id).where('status', '=', 'APPROVED').executeTakeFirst();
    if (!order?.receipt_reference || !order.paid_at)
      throw new ApiProblem(404, ERROR_CODES.notFound);
    const view = orderView(order);
    return {
      language,
      receiptReference: order.receipt_reference,
      orderReference: order.order_reference,
      orderId: order.id,
      documentNumber: document.number ?? '',
      documentTitle: titleIn(language),
      payerName: document.ownerName ?? document.owner,
      // The receipt names each fee in its language, and who a line is for beside the fee.
      items: view.items.map((line) => {
        const { narration, i18n: _translations, ...fee } = line;
        const name = localizedText(line, 'name', language) ?? line.name;
        return { ...fee, name: narration ? `${name} (${narration})` : name };
      }),
      total: view.total,
      amountPaid: view.amountPaid ?? view.total,
      currency: order.currency,
      maskedCard: order.masked_card ?? '',
      paidAt: new Date(order.paid_at).toISOString(),
    };
  }

  /**
   * Applies a gateway report, once. An approval must name a known session, the order's reference
   * and exactly its amount and currency, or it is refused; a settled order is left as it is.
   */
  async apply(report: GatewayReport): Promise<PaymentStatus> {
    return this.options.db.transaction().execute(async (trx) => {
      const order = await trx
        .selectFrom('payment_order')
        .selectAll()
        .where('gateway', '=', this.options.gateway.id)
        .where('gateway_session', '=', report.sessionId)
        .forUpdate()
        .executeTakeFirst();
      if (!order) throw new RefusedReport(`unknown session ${report.sessionId}`);
      if (order.order_reference !== report.orderReference)
        throw new RefusedReport(
          `session ${report.sessionId} is not order ${report.orderReference}`,
        );
      if (FINAL.includes(order.status) || report.outcome === 'PENDING')
        return order.status as PaymentStatus;
      if (report.outcome === 'APPROVED') {
        if (report.amountCents !== Number(order.amount_cents) || report.currency !== order.currency)
          throw new RefusedReport(
            `order ${order.order_reference}: ${report.currency} ${report.amountCents} cents reported, ${order.currency} ${order.amount_cents} due`,
          );
        await this.settlePaid(trx, order, report);
        return 'APPROVED';
      }
      await trx
        .updateTable('payment_order')
        .set({
          status: report.outcome,
          transaction_id: report.transactionId ?? null,
          updated_at: sql<string>`now()`,
        })
        .where('id', '=', order.id)
        .execute();
      // The document goes back to be paid again, if it is still waiting for this payment.
      await this.finalise(trx, order);
      return report.outcome;
    });
  }

  private async settlePaid(trx: Transaction<Database>, order: OrderRow, report: GatewayReport) {
    const amount = fromCents(report.amountCents);
    const receipt = await nextNumber(trx, 'payment-receipt', { prefix: 'RC' }, new Date());
    await trx
      .updateTable('payment_order')
      .set({
        status: 'APPROVED',
        transaction_id: report.transactionId ?? null,
        masked_card: report.maskedCard ?? null,
        amount_paid_cents: report.amountCents,
        receipt_reference: receipt.number,
        paid_at: new Date().toISOString(),
        updated_at: sql<string>`now()`,
      })
      .where('id', '=', order.id)
      .execute();
    await this.act(trx, order, 'pay', {
      key: 'notices.history.paid',
      params: { order: order.order_reference, amount, currency: order.currency },
      text: `Paid: order ${order.order_reference}, ${order.currency} ${amount}`,
    });
  }

  private async finalise(trx: Transaction<Database>, order: OrderRow) {
    const document = await documentStatus(trx, order.document_id);
    if (document?.status !== 'PURCHASE INITIATED') return;
    await this.act(trx, order, 'finalise', {
      key: 'notices.history.notPaid',
      params: { order: order.order_reference },
      text: `Payment not made: order ${order.order_reference}`,
    });
  }

  /** The gateway's word acting on the order's document, with its history line. */
  private act(
    trx: Transaction<Database>,
    order: OrderRow,
    action: string,
    notice: Parameters<DocumentService['actAsSystem']>[5],
  ) {
    const { document_type: type, document_id: id } = order;
    return this.options.documents.actAsSystem(trx, type, id, action, PAYMENT_GATEWAY_ACTOR, notice);
  }

  private orders(documentId: string) {
    return this.options.db
      .selectFrom('payment_order')
      .selectAll()
      .where('document_id', '=', documentId)
      .orderBy('created_at', 'desc');
  }

  private openOrder(documentId: string): Promise<OrderRow | undefined> {
    return this.orders(documentId).where('status', 'in', ['CREATED', 'PENDING']).executeTakeFirst();
  }

  private latestOrder(documentId: string): Promise<OrderRow | undefined> {
    return this.orders(documentId).orderBy('id').executeTakeFirst();
  }
}

function orderView(order: OrderRow): PaymentOrderView {
  const items = (
    typeof order.items === 'string' ? JSON.parse(order.items) : order.items
  ) as FeeLine[];
  return {
    orderId: order.id,
    orderReference: order.order_reference,
    status: order.status as PaymentStatus,
    currency: order.currency,
    items,
    total: fromCents(Number(order.amount_cents)),
    amountPaid:
      order.amount_paid_cents === null ? null : fromCents(Number(order.amount_paid_cents)),
    maskedCard: order.masked_card,
    receiptReference: order.receipt_reference,
    paidAt: order.paid_at ? new Date(order.paid_at).toISOString() : null,
    createdAt: new Date(order.created_at).toISOString(),
  };
}
