import type { Kysely, Transaction } from 'kysely';
import { fromCents, toCents } from '../../core/payments/money';
import type { FeeLine } from '../../core/payments/types';
import type { WorkflowPayment } from '../../core/documents/workflow';
import type { Database } from '../db/schema';
import { entriesValidAt } from '../catalog/valid-at';
import { resolvePointer } from '../../core/rules/registry';

/**
 * Fee lines and their total as frozen on a document (the shape of the visa application's fees
 * section): each line DUE until paid; once paid, the amount paid, the receipt reference and
 * the payment date are added by the `recordPayment` effect.
 */
export interface FrozenFees {
  lines: Array<FeeLine & { status: 'DUE' | 'PAID' }>;
  currency: 'NZD';
  total: string;
  amountPaid?: string;
  receiptReference?: string;
  paymentDate?: string;
}

/** The value at a JSON pointer of the document's data. */
export const valueAt = resolvePointer;

export function setAt(data: Record<string, unknown>, pointer: string, value: unknown): void {
  const parts = pointer.split('/').slice(1);
  const last = parts.pop();
  if (last === undefined) return;
  let node = data;
  for (const part of parts) {
    const next = node[part];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[last] = value;
}

/**
 * The fees a document owes at `at`: the document fees and the sub-document fees in force
 * (status on) that are charged automatically, from the fee catalogues valid at that instant.
 * A sub-document fee's amount and other amount make one line.
 */
export async function feesDue(
  db: Kysely<Database> | Transaction<Database>,
  payment: WorkflowPayment,
  data: Record<string, unknown>,
  at: Date,
): Promise<FrozenFees> {
  const documentCode = valueAt(data, payment.document);
  const subDocumentCode = payment.subDocument ? valueAt(data, payment.subDocument) : undefined;
  const lines: Array<FeeLine & { cents: number }> = [];
  const collect = async (catalog: string, keyField: string, code: unknown, amounts: string[]) => {
    if (typeof code !== 'string' || code === '') return;
    const entries = await entriesValidAt(db as Kysely<Database>, catalog, at);
    for (const { data: fee } of entries) {
      if (fee[keyField] !== code || fee.status !== true || fee.automatic !== true) continue;
      const cents = amounts.reduce((sum, field) => sum + (toCents(fee[field] ?? 0) ?? 0), 0);
      if (cents <= 0) continue;
      lines.push({
        code: String(fee.code),
        name: String(fee.name),
        amount: fromCents(cents),
        cents,
      });
    }
  };
  await collect('document-fee', 'documentCode', documentCode, ['amount']);
  await collect('sub-document-fee', 'subDocumentCode', subDocumentCode, ['amount', 'other']);
  const total = lines.reduce((sum, line) => sum + line.cents, 0);
  return {
    lines: lines.map(({ code, name, amount }) => ({ code, name, amount, status: 'DUE' as const })),
    currency: 'NZD',
    total: fromCents(total),
  };
}
