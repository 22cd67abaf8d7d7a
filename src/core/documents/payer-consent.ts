/**
 * Paying for others (docs/payments.md, "Paying for others"): what the server answers about the
 * payers a document's holder named, shared by the server and the portal.
 */

/** The history's actions of a payer named and revoked (no declared action has a colon). */
export const PAYER_NAMED = 'payer:named';
export const PAYER_REVOKED = 'payer:revoked';

/** Their texts in the document's history. */
export const PAYER_HISTORY_TEXTS: Readonly<Record<string, string>> = {
  [PAYER_NAMED]: 'payer-consent.history.named',
  [PAYER_REVOKED]: 'payer-consent.history.revoked',
};

/** One account a holder named as payer of their document. */
export interface PayerConsent {
  id: string;
  payer: { subject: string; name: string; login: string | null };
  grantedBy: { subject: string; name: string };
  grantedAt: string;
}

/** The payers of a document, and whether its holder may name or revoke one now. */
export interface DocumentPayers {
  items: PayerConsent[];
  /** The document is in a status of its workflow's `payerConsent` and the caller holds it. */
  mayChange: boolean;
}

/** A document the caller was named payer of (`GET /payer-consents`). */
export interface PayableDocument {
  consent: string;
  type: string;
  id: string;
  number: string | null;
  status: string;
  holderName: string | null;
  amountDue: string | null;
  currency: string | null;
  grantedAt: string;
}
