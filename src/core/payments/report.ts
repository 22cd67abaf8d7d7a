/** The payment report (docs/payments.md, "The payment report"), as the API answers it. */

/** The role that reads and exports the report: finance officers. */
export const FINANCE_ROLE = 'finance';

/** Where the report is served: JSON, and the same as CSV in the reader's language. */
export const PAYMENT_REPORT_PATH = '/api/payments/report';
export const PAYMENT_REPORT_CSV_PATH = '/api/payments/report/csv';

/** The longest range one report covers, in days (a year and a day). */
export const PAYMENT_REPORT_MAX_DAYS = 366;

/** Amounts of one row: decimal strings, never floats ("150.00"); net = received - refunded. */
export interface PaymentReportAmounts {
  currency: string;
  received: string;
  refunded: string;
  net: string;
  /** Payments received (card orders approved, transfers settled). */
  payments: number;
  /** Refunds completed. */
  refunds: number;
}

export interface PaymentReportDay extends PaymentReportAmounts {
  /** YYYY-MM-DD, UTC. */
  day: string;
}

export interface PaymentReportMethod extends PaymentReportAmounts {
  /** `card`, or the `reconcile.method` of a workflow (`invoice`). */
  method: string;
  /** The method in the reader's language. */
  label: string;
}

export interface PaymentReportFee {
  /** The fee code; null for an excess received over what was due. */
  code: string | null;
  /** The fee's name in the reader's language. */
  label: string;
  currency: string;
  received: string;
}

export interface PaymentReport {
  from: string;
  to: string;
  days: PaymentReportDay[];
  methods: PaymentReportMethod[];
  fees: PaymentReportFee[];
  /** One row per currency. */
  totals: PaymentReportAmounts[];
}
