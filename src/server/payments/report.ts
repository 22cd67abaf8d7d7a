import { sql, type Kysely } from 'kysely';
import { translate, type Language, type TextTree } from '../../core/i18n/translate';
import { fromCents } from '../../core/payments/money';
import {
  PAYMENT_REPORT_MAX_DAYS,
  type PaymentReport,
  type PaymentReportAmounts,
} from '../../core/payments/report';
import type { Database } from '../db/schema';
import { invalid } from '../search/compile-search';

/**
 * The payment report (docs/payments.md, "The payment report"): what was received, by day (UTC),
 * by method and by fee code, and the refunds completed, netted. Summed in SQL, in cents, from
 * the receipts themselves: card orders APPROVED (their items), transfers settled
 * (payment_settlement, their amount received and the fee lines they settled), refunds REFUNDED.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 864e5;

/** The range asked: YYYY-MM-DD both, from not after to, at most a year; by default 30 days to today. */
export function reportRange(
  query: { from?: unknown; to?: unknown },
  now: Date = new Date(),
): { from: string; to: string } {
  const given = (value: unknown) => (value === undefined || value === '' ? undefined : value);
  const isDate = (value: unknown): value is string =>
    typeof value === 'string' &&
    DATE.test(value) &&
    new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
  const to = given(query.to) ?? now.toISOString().slice(0, 10);
  const fromGiven = given(query.from);
  const problems = [];
  if (!isDate(to)) problems.push({ path: '/to', rule: 'format', params: { format: 'date' } });
  if (fromGiven !== undefined && !isDate(fromGiven))
    problems.push({ path: '/from', rule: 'format', params: { format: 'date' } });
  if (problems.length) throw invalid(problems);
  const toDay = new Date(`${to as string}T00:00:00Z`).getTime();
  const from =
    (fromGiven as string | undefined) ?? new Date(toDay - 30 * DAY_MS).toISOString().slice(0, 10);
  const days = (toDay - new Date(`${from}T00:00:00Z`).getTime()) / DAY_MS;
  if (days < 0) throw invalid([{ path: '/from', rule: 'reportRangeReversed' }]);
  if (days >= PAYMENT_REPORT_MAX_DAYS)
    throw invalid([
      { path: '/from', rule: 'reportRangeTooLong', params: { limit: PAYMENT_REPORT_MAX_DAYS } },
    ]);
  return { from, to: to as string };
}

interface GroupedRow {
  day: string | null;
  method: string | null;
  currency: string;
  received: string;
  refunded: string;
  payments: number | string;
  refunds: number | string;
  by_day: number | string;
  by_method: number | string;
}

interface FeeRow {
  code: string | null;
  currency: string;
  cents: string;
  name: string | null;
}

/** The report of a range, its words in `language` (methods, fee names). */
export async function paymentReport(
  db: Kysely<Database>,
  range: { from: string; to: string },
  language: Language,
  texts: Partial<Record<Language, TextTree>>,
): Promise<PaymentReport> {
  const start = `${range.from}T00:00:00Z`;
  const end = new Date(new Date(`${range.to}T00:00:00Z`).getTime() + DAY_MS).toISOString();
  const within = (column: string) =>
    sql`${sql.ref(column)} >= ${start}::timestamptz and ${sql.ref(column)} < ${end}::timestamptz`;
  const utcDay = (column: string) =>
    sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`;
  // One row per movement's (day, method, currency), rolled up by day, by method and in all.
  const grouped = await sql<GroupedRow>`
    with movements as (
      select ${utcDay('o.paid_at')} as day, 'card' as method, o.currency,
        coalesce(o.amount_paid_cents, o.amount_cents) as received, 0::bigint as refunded,
        1 as payments, 0 as refunds
      from payment_order o
      where o.status = 'APPROVED' and ${within('o.paid_at')}
      union all
      select ${utcDay('s.verified_at')}, s.method, s.currency, s.received_cents, 0::bigint, 1, 0
      from payment_settlement s
      where s.outcome <> 'SHORT' and ${within('s.verified_at')}
      union all
      select ${utcDay('r.completed_at')},
        case when r.method = 'card' then 'card' else coalesce(
          (select s.method from payment_settlement s where s.document_id = r.document_id
            order by s.round desc limit 1),
          r.method) end,
        r.currency, 0::bigint, r.amount_cents, 0, 1
      from payment_refund r
      where r.status = 'REFUNDED' and ${within('r.completed_at')}
    )
    select day, method, currency,
      sum(received)::text as received, sum(refunded)::text as refunded,
      sum(payments)::int as payments, sum(refunds)::int as refunds,
      grouping(day) as by_method, grouping(method) as by_day
    from movements
    group by grouping sets ((day, currency), (method, currency), (currency))
    order by currency, day nulls last, method nulls last
  `.execute(db);
  const fees = await sql<FeeRow>`
    with lines as (
      select o.currency, l.value as line
      from payment_order o cross join lateral jsonb_array_elements(o.items) l
      where o.status = 'APPROVED' and ${within('o.paid_at')}
      union all
      select s.currency, l.value
      from payment_settlement s cross join lateral jsonb_array_elements(s.lines) l
      where s.outcome <> 'SHORT' and ${within('s.verified_at')}
    )
    select line->>'code' as code, currency,
      sum(round((line->>'amount')::numeric * 100))::bigint::text as cents,
      min(coalesce(nullif(line->'i18n'->${language}->>'name', ''), line->>'name')) as name
    from lines
    group by line->>'code', currency
    order by currency, code nulls last
  `.execute(db);

  const amounts = (row: GroupedRow): PaymentReportAmounts => {
    const received = Number(row.received);
    const refunded = Number(row.refunded);
    return {
      currency: row.currency,
      received: fromCents(received),
      refunded: fromCents(refunded),
      net: fromCents(received - refunded),
      payments: Number(row.payments),
      refunds: Number(row.refunds),
    };
  };
  const rows = grouped.rows;
  return {
    ...range,
    days: rows
      .filter((r) => Number(r.by_day) === 1 && Number(r.by_method) === 0)
      .map((r) => ({ day: r.day!, ...amounts(r) })),
    methods: rows
      .filter((r) => Number(r.by_method) === 1 && Number(r.by_day) === 0)
      .map((r) => ({
        method: r.method!,
        label: methodLabel(texts, language, r.method!),
        ...amounts(r),
      })),
    fees: fees.rows.map((r) => ({
      code: r.code,
      label:
        r.code === null ? translate(texts, language, 'payment-report.excess') : (r.name ?? r.code),
      currency: r.currency,
      received: fromCents(Number(r.cents)),
    })),
    totals: rows.filter((r) => Number(r.by_day) === 1 && Number(r.by_method) === 1).map(amounts),
  };
}

/** A method's name in the language: `payment-report.methods.<method>`, else its code. */
export function methodLabel(
  texts: Partial<Record<Language, TextTree>>,
  language: Language,
  method: string,
): string {
  const key = `payment-report.methods.${method}`;
  const label = translate(texts, language, key);
  return label === key ? method : label;
}

/** A spreadsheet would run a cell starting so as a formula: such text is quoted as text. */
const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

function cell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (FORMULA.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The report as CSV in the reader's language: one row per day, per method, per fee and per
 * currency's total, the group named in words; amounts as decimal strings with a point.
 */
export function paymentReportCsv(
  report: PaymentReport,
  language: Language,
  texts: Partial<Record<Language, TextTree>>,
): string {
  const t = (key: string) => translate(texts, language, `payment-report.${key}`);
  const header = [
    'group',
    'item',
    'currency',
    'received',
    'refunded',
    'net',
    'payments',
    'refunds',
  ];
  const line = (values: Array<string | number | null>) => values.map(cell).join(',');
  const amountsOf = (a: PaymentReportAmounts) => [
    a.currency,
    a.received,
    a.refunded,
    a.net,
    a.payments,
    a.refunds,
  ];
  const lines = [
    line(header.map((h) => t(`csv.${h}`))),
    ...report.days.map((d) => line([t('byDay'), d.day, ...amountsOf(d)])),
    ...report.methods.map((m) => line([t('byMethod'), m.label, ...amountsOf(m)])),
    ...report.fees.map((f) =>
      line([
        t('byFee'),
        f.code === null ? f.label : `${f.code} ${f.label}`,
        f.currency,
        f.received,
        null,
        null,
        null,
        null,
      ]),
    ),
    ...report.totals.map((a) =>
      line([t('total'), `${report.from} - ${report.to}`, ...amountsOf(a)]),
    ),
  ];
  // A byte order mark, so that spreadsheets read the accents of French names as UTF-8.
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
