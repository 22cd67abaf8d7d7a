import { sql, type Transaction } from 'kysely';
import type { ActionReconcile } from '../../core/definitions/shapes/action';
import { formatMoney } from '../../core/format';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import { fromCents, toCents } from '../../core/payments/money';
import { resolvePointer } from '../../core/rules/registry';
import type { Database } from '../db/schema';
import { ApiProblem, ERROR_CODES } from '../http/api-error';
import { invalid } from '../search/compile-search';
import { openRefund } from './refunds';

/**
 * Reconciling a payment received by transfer (docs/payments.md, "Reconciling an invoice"): an
 * action's `reconcile` names where the amount due is and where the officer records the amount
 * received and the bank's reference. Amounts are cents, never floats.
 */

/** What one verification found: the amounts, the bank's reference and which round it is. */
export interface Reconciliation {
  declared: ActionReconcile;
  dueCents: number;
  receivedCents: number;
  reference: string;
  /** 1 for the first verification of the document, 2 after one shortfall, and so on. */
  round: number;
}

/** A fee line as the payment report sums it (its name frozen with it); a null code is an excess received. */
export interface SettledLine {
  code: string | null;
  amount: string;
  name?: string;
  i18n?: unknown;
}

const REFERENCE_MAX = 50;

/**
 * The amounts of the data as the officer leaves it: received and reference are required (400
 * naming them), the amount a decimal string of at most two places; the due amount the server's.
 */
export async function reconciliationOf(
  trx: Transaction<Database>,
  declared: ActionReconcile,
  documentId: string,
  data: Record<string, unknown>,
): Promise<Reconciliation> {
  const received = resolvePointer(data, declared.received);
  const reference = resolvePointer(data, declared.reference);
  const receivedCents = typeof received === 'string' ? toCents(received) : undefined;
  const problems = [];
  if (received === undefined || received === '')
    problems.push({ path: declared.received, rule: 'required' });
  else if (receivedCents === undefined)
    problems.push({ path: declared.received, rule: 'pattern', params: { pattern: '0.00' } });
  if (typeof reference !== 'string' || !reference.trim())
    problems.push({ path: declared.reference, rule: 'required' });
  else if (reference.length > REFERENCE_MAX)
    problems.push({
      path: declared.reference,
      rule: 'maxLength',
      params: { limit: REFERENCE_MAX },
    });
  if (problems.length) throw invalid(problems);
  const dueCents = toCents(resolvePointer(data, declared.due));
  // The server wrote the amount due; without it there is nothing to reconcile against.
  if (dueCents === undefined) throw new ApiProblem(409, ERROR_CODES.nothingToPay);
  // Verifications queue on the document's row lock (the action's), so the count is the round.
  const { rounds } = await trx
    .selectFrom('payment_settlement')
    .select(sql<string>`count(*)`.as('rounds'))
    .where('document_id', '=', documentId)
    .executeTakeFirstOrThrow();
  return {
    declared,
    dueCents,
    receivedCents: receivedCents!,
    reference: (reference as string).trim(),
    round: Number(rounds) + 1,
  };
}

/** The note the `short` action writes, in the payer's language: how much is missing, of what. */
export function shortfallNote(
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
  r: Reconciliation,
): string {
  const money = (cents: number) => formatMoney(fromCents(cents), language, r.declared.currency);
  return translate(texts, language, r.declared.note, {
    missing: money(r.dueCents - r.receivedCents),
    received: money(r.receivedCents),
    due: money(r.dueCents),
  });
}

/** The round written: what was due and received, with the lines settled (none if short). */
export async function recordReconciliation(
  trx: Transaction<Database>,
  r: Reconciliation,
  document: { type: string; id: string; number: string | null },
  verifiedBy: string,
  settled: SettledLine[],
  now: Date,
): Promise<void> {
  const excess = r.receivedCents - r.dueCents;
  const outcome = excess < 0 ? 'SHORT' : excess === 0 ? 'EXACT' : 'OVER';
  const lines =
    outcome === 'OVER' ? [...settled, { code: null, amount: fromCents(excess) }] : settled;
  await trx
    .insertInto('payment_settlement')
    .values({
      document_type: document.type,
      document_id: document.id,
      document_number: document.number,
      method: r.declared.method,
      round: r.round,
      outcome,
      currency: r.declared.currency,
      due_cents: r.dueCents,
      received_cents: r.receivedCents,
      bank_reference: r.reference,
      lines: JSON.stringify(outcome === 'SHORT' ? [] : lines),
      verified_by: verifiedBy,
      verified_at: now.toISOString(),
    })
    .execute();
}

/**
 * An excess received is given back: a refund by transfer of exactly the excess, opened in the
 * verification's transaction. The one place the reconciliation opens a refund.
 */
export async function refundExcess(
  trx: Transaction<Database>,
  r: Reconciliation,
  document: { type: string; id: string },
  requestedBy: string,
  language: Language,
  now: Date,
): Promise<void> {
  const excess = r.receivedCents - r.dueCents;
  if (excess <= 0) return;
  const opened = await openRefund(
    trx,
    {
      documentType: document.type,
      documentId: document.id,
      method: 'transfer',
      currency: r.declared.currency,
      amountCents: excess,
      paidCents: r.receivedCents,
      reason: 'overpayment',
      idempotencyKey: `overpayment:${document.id}:${r.round}`,
      requestedBy,
      status: 'REQUESTED',
      language,
    },
    now,
  );
  // A refund already open for the document: the verification waits rather than lose the excess.
  if (!opened.opened) throw new ApiProblem(409, ERROR_CODES.refundNotOpened);
}

/** The fee lines of the documents settled, read where each one's workflow froze its fees. */
export function settledLines(
  rows: ReadonlyArray<{ type: string; data: Record<string, unknown> }>,
  feesOf: (type: string) => string | undefined,
): SettledLine[] {
  return rows.flatMap((row) => {
    const pointer = feesOf(row.type);
    const fees = pointer ? resolvePointer(row.data, pointer) : undefined;
    const lines = (fees as { lines?: unknown } | undefined)?.lines;
    if (!Array.isArray(lines)) return [];
    return lines.flatMap((line: unknown) => {
      const { code, amount, name, i18n } = (line ?? {}) as Record<string, unknown>;
      const cents = toCents(amount);
      if (typeof code !== 'string' || cents === undefined) return [];
      return [
        {
          code,
          amount: fromCents(cents),
          ...(typeof name === 'string' && { name }),
          ...(i18n !== undefined && { i18n }),
        },
      ];
    });
  });
}
