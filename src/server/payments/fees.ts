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
  lines: Array<FeeLine & { status: 'DUE' | 'PAID' }>;
  /** The workflow's declared currency (`payment.currency`), for every amount of the lines. */
  currency: string;
  total: string;
  amountPaid?: string;
  receiptReference?: string;
  paymentDate?: string;
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
  source: WorkflowFeeSource,
  data: Record<string, unknown>,
  at: Date,
): Promise<Array<FeeLine & { cents: number; list?: string }>> {
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
    return payers.map((payer) => ({
      code: String(fee[source.code]),
      name: String(fee[source.name]),
      ...(payer.narration ? { narration: payer.narration } : {}),
      amount: fromCents(cents),
      ...(i18n && { i18n }),
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
  const lines: Array<FeeLine & { cents: number; list?: string }> = [];
  for (const source of payment.sources)
    lines.push(...(await sourceLines(catalogs, source, data, at)));
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
    for (const line of await sourceLines(catalogs, source, data, at))
      if (line.list) lists.add(line.list);
  return lists;
}
