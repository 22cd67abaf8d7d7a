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

/** Who a sub-document fee line is charged for: the applicant, or a named dependant or employee. */
interface Payer {
  narration?: string;
}

/** "Given Family" of a person entry of the document (a dependant, an employee). */
function personName(person: unknown): string | undefined {
  if (typeof person !== 'object' || person === null) return undefined;
  const { givenName, familyName, name } = person as Record<string, unknown>;
  const parts = [givenName, familyName].filter(
    (p): p is string => typeof p === 'string' && p !== '',
  );
  if (parts.length > 0) return parts.join(' ');
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/**
 * Who the sub-document's fees are charged for, by its flags (specification 001, SubDocument):
 * the applicant when applicantIsCharged; each dependant when dependants are enabled and charged;
 * each employee when employees are enabled and charged. A flag the entry lacks is off, except
 * applicantIsCharged, which a sub-document without flags is taken to mean.
 */
function subDocumentPayers(
  subDocument: Record<string, unknown> | undefined,
  payment: WorkflowPayment,
  data: Record<string, unknown>,
): Payer[] {
  const flag = (name: string, fallback = false) =>
    subDocument && typeof subDocument[name] === 'boolean' ? subDocument[name] === true : fallback;
  const people = (pointer: string | undefined): Payer[] => {
    const list = pointer ? valueAt(data, pointer) : undefined;
    return Array.isArray(list) ? list.map((person) => ({ narration: personName(person) })) : [];
  };
  return [
    ...(flag('applicantIsCharged', true) ? [{}] : []),
    ...(flag('dependantIsEnabled') && flag('dependantIsCharged') ? people(payment.dependants) : []),
    ...(flag('employeeIsEnabled') && flag('employeeIsCharged') ? people(payment.employees) : []),
  ];
}

/**
 * The fees a document owes at `at` (its submission): the document fees and the sub-document
 * fees in force (status on) that are charged automatically, from the fee catalogues valid at
 * that instant. A sub-document fee's amount and other amount make one line, repeated for each
 * person the sub-document charges (the applicant, dependants, employees).
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
  const collect = async (
    catalog: string,
    keyField: string,
    code: unknown,
    amounts: string[],
    payers: Payer[],
  ) => {
    if (typeof code !== 'string' || code === '') return;
    const entries = await entriesValidAt(db as Kysely<Database>, catalog, at);
    for (const { data: fee } of entries) {
      if (fee[keyField] !== code || fee.status !== true || fee.automatic !== true) continue;
      const cents = amounts.reduce((sum, field) => sum + (toCents(fee[field] ?? 0) ?? 0), 0);
      if (cents <= 0) continue;
      for (const payer of payers) {
        lines.push({
          code: String(fee.code),
          name: String(fee.name),
          ...(payer.narration ? { narration: payer.narration } : {}),
          amount: fromCents(cents),
          cents,
        });
      }
    }
  };
  await collect('document-fee', 'documentCode', documentCode, ['amount'], [{}]);
  if (typeof subDocumentCode === 'string' && subDocumentCode !== '') {
    const [subDocument] = await entriesValidAt(db as Kysely<Database>, 'sub-document', at, [
      subDocumentCode,
    ]);
    const payers = subDocumentPayers(subDocument?.data, payment, data);
    await collect(
      'sub-document-fee',
      'subDocumentCode',
      subDocumentCode,
      ['amount', 'other'],
      payers,
    );
  }
  const total = lines.reduce((sum, line) => sum + line.cents, 0);
  return {
    lines: lines.map(({ cents: _cents, ...line }) => ({ ...line, status: 'DUE' as const })),
    currency: 'NZD',
    total: fromCents(total),
  };
}
