import { fromCents, toCents } from '../../core/payments/money';
import type { FeeLine } from '../../core/payments/types';
import type {
  WorkflowFeeFlags,
  WorkflowFeePayers,
  WorkflowFeeSource,
  WorkflowPayment,
} from '../../core/documents/workflow';
import type { CatalogReader } from '../catalog/valid-at';
import { resolvePointer } from '../../core/rules/registry';
import { copiedTranslations } from '../../core/i18n/localized';

/** Fee lines and their total as frozen on a document; the payment fields once paid. */
export interface FrozenFees {
  lines: Array<FrozenLine>;
  /** The workflow's declared currency (`payment.currency`), for every amount of the lines. */
  currency: string;
  total: string;
  amountPaid?: string;
  receiptReference?: string;
  paymentDate?: string;
}

/**
 * A frozen line: its refund rule (`refund`) is the percentage given back in each refund stage
 * named (docs/payments.md, "Withdrawal and refund rules"), copied when the fees are frozen so a
 * later change of a catalogue or of the stages leaves a submitted document's refund as it was.
 */
export type FrozenLine = FeeLine & { status: 'DUE' | 'PAID'; refund?: Record<string, number> };

/** The line's refund rule: the declared stages up to the one its entry names, with their share. */
function refundRule(
  payment: WorkflowPayment,
  source: WorkflowFeeSource,
  fee: Record<string, unknown>,
): Record<string, number> | undefined {
  const stages = payment.refunds?.stages;
  if (!stages) return undefined;
  let until = stages.length - 1;
  if (source.refundableUntil) {
    until = stages.findIndex((stage) => stage.id === fee[source.refundableUntil as string]);
    // An entry naming no stage (or one the workflow no longer has) is not refundable.
    if (until < 0) return {};
  }
  return Object.fromEntries(stages.slice(0, until + 1).map((stage) => [stage.id, stage.percent]));
}

/** Who one fee line is charged for: once (no narration), or a named person of a list. */
interface Payer {
  narration?: string;
  /** The data pointer of the list the person is in (`payers.people[].list`). */
  list?: string;
}

/** The code at `pointer` when it is one (a non-empty string), else undefined. */
function codeAt(data: Record<string, unknown>, pointer: string): string | undefined {
  const code = resolvePointer(data, pointer);
  return typeof code === 'string' && code !== '' ? code : undefined;
}

/** A person's narration: the first declared group of fields with a value, joined by a space. */
function narrationOf(person: unknown, narration: readonly string[][]): string | undefined {
  if (typeof person !== 'object' || person === null) return undefined;
  const fields = person as Record<string, unknown>;
  for (const group of narration) {
    const parts = group
      .map((field) => fields[field])
      .filter((part): part is string => typeof part === 'string' && part !== '');
    if (parts.length > 0) return parts.join(' ');
  }
  return undefined;
}

/** Whether every declared flag of the entry is on; a flag it lacks counts as `unset`. */
function flagsOn(entry: Record<string, unknown> | undefined, { flags, unset }: WorkflowFeeFlags) {
  return flags.every((flag) =>
    entry && typeof entry[flag] === 'boolean' ? entry[flag] === true : unset === true,
  );
}

/** Who a source's entries charge, by the flags of the payers' entry valid at `at`. */
async function payersOf(
  catalogs: CatalogReader,
  payers: WorkflowFeePayers,
  data: Record<string, unknown>,
  at: Date,
): Promise<Payer[]> {
  const key = codeAt(data, payers.pointer);
  const [entry] = key ? await catalogs.validAt(payers.catalog, at, [key]) : [];
  const once = payers.once && flagsOn(entry?.data, payers.once) ? [{}] : [];
  const people = (payers.people ?? []).flatMap((group) => {
    if (!flagsOn(entry?.data, group)) return [];
    const list = resolvePointer(data, group.list);
    return Array.isArray(list)
      ? list.map((person) => ({
          narration: narrationOf(person, group.narration),
          list: group.list,
        }))
      : [];
  });
  return [...once, ...people];
}

/** The lines of one fee source: its matching entries, each once per payer. */
async function sourceLines(
  catalogs: CatalogReader,
  payment: WorkflowPayment,
  source: WorkflowFeeSource,
  data: Record<string, unknown>,
  at: Date,
): Promise<Array<FeeLine & { cents: number; list?: string; refund?: Record<string, number> }>> {
  const code = codeAt(data, source.match.pointer);
  if (code === undefined) return [];
  const conditions = Object.fromEntries(source.when.map((field) => [field, true]));
  const entries = await catalogs.validAtWith(source.catalog, at, {
    ...conditions,
    [source.match.field]: code,
  });
  if (entries.length === 0) return [];
  const payers = source.payers ? await payersOf(catalogs, source.payers, data, at) : [{}];
  return entries.flatMap(({ data: fee }) => {
    const cents = source.amounts.reduce((sum, field) => sum + (toCents(fee[field] ?? 0) ?? 0), 0);
    if (cents <= 0) return [];
    // The name's translations are frozen with it, for each reader's language.
    const i18n = copiedTranslations(fee, [['name', source.name]]);
    const refund = refundRule(payment, source, fee);
    return payers.map((payer) => ({
      code: String(fee[source.code]),
      name: String(fee[source.name]),
      ...(payer.narration ? { narration: payer.narration } : {}),
      amount: fromCents(cents),
      ...(i18n && { i18n }),
      ...(refund && { refund }),
      cents,
      ...(payer.list ? { list: payer.list } : {}),
    }));
  });
}

/** The fees a document owes at `at`: each source's entries valid then, a line per payer. */
export async function feesDue(
  catalogs: CatalogReader,
  payment: WorkflowPayment,
  data: Record<string, unknown>,
  at: Date,
): Promise<FrozenFees> {
  const lines: Array<FeeLine & { cents: number; list?: string; refund?: Record<string, number> }> =
    [];
  for (const source of payment.sources)
    lines.push(...(await sourceLines(catalogs, payment, source, data, at)));
  const total = lines.reduce((sum, line) => sum + line.cents, 0);
  return {
    lines: lines.map(({ cents: _cents, list: _list, ...line }) => ({
      ...line,
      status: 'DUE' as const,
    })),
    currency: payment.currency,
    total: fromCents(total),
  };
}

/** The lists whose people the fees due at `at` charge (`certificate.holders` with `charged`). */
export async function listsCharged(
  catalogs: CatalogReader,
  payment: WorkflowPayment,
  data: Record<string, unknown>,
  at: Date,
): Promise<Set<string>> {
  const lists = new Set<string>();
  for (const source of payment.sources)
    for (const line of await sourceLines(catalogs, payment, source, data, at))
      if (line.list) lists.add(line.list);
  return lists;
}

/** What a withdrawal would give back of a document's fees at a status (refundDue). */
export interface RefundDue {
  currency: string;
  /** What was paid for the document, in cents (0 when nothing was). */
  paidCents: number;
  /** What the paid lines' frozen rules give back at the status, in cents (never above paid). */
  refundCents: number;
  /** The refund stage the status is in, if any. */
  stage?: string;
}

/**
 * The refund the frozen fees give at `status`: each paid line's amount times its frozen share
 * for the stage the status is in, rounded down to the cent, the sum capped at what was paid.
 * The one computation behind both the quote and the refund a withdrawal opens.
 */
export function refundDue(
  payment: WorkflowPayment,
  data: Record<string, unknown>,
  status: string,
): RefundDue {
  const fees = resolvePointer(data, payment.fees) as FrozenFees | undefined;
  const currency = fees?.currency ?? payment.currency;
  const paidCents = (fees?.amountPaid !== undefined && toCents(fees.amountPaid)) || 0;
  const stage = payment.refunds?.stages?.find((s) => s.statuses.includes(status))?.id;
  if (!fees || paidCents <= 0 || !stage) return { currency, paidCents, refundCents: 0, stage };
  const lines = Array.isArray(fees.lines) ? fees.lines : [];
  const cents = lines.reduce((sum, line) => {
    const percent = line.status === 'PAID' ? (line.refund?.[stage] ?? 0) : 0;
    return sum + Math.floor(((toCents(line.amount) ?? 0) * percent) / 100);
  }, 0);
  return { currency, paidCents, refundCents: Math.min(cents, paidCents), stage };
}
