import type { Language } from '../i18n/translate';

/**
 * An issued document's certificate as a web page shows it (`GET .../certificate/view`): the
 * content its PDF draws, every text already in the holder's language.
 */

/** A list shown as a table: its columns' headings, then one row of cells per item. */
export interface CertificateViewTable {
  columns: string[];
  /** One cell per column; '' for an item without that value. */
  rows: string[][];
  /** Per column: amounts, read aligned right. */
  alignRight: boolean[];
}

/** A label with its value, its lines, or its table. */
export interface CertificateViewField {
  /** '' for a table named by its section's heading. */
  label: string;
  value?: string;
  lines?: string[];
  /** The lines are a list's items (numbered on the PDF), not the parts of one value. */
  numbered?: boolean;
  table?: CertificateViewTable;
}

export interface CertificateViewSection {
  /** null: the fields before the first heading. */
  heading: string | null;
  fields: CertificateViewField[];
}

export interface CertificateView {
  /** The holder's language, in which every text below is written. */
  language: Language;
  issuer: string;
  title: string;
  number: string;
  sections: CertificateViewSection[];
  /** The public check of the document's number, when its workflow declares `verification`. */
  checkUrl: string | null;
  /** What the check's address is for, said before it. */
  checkText: string | null;
  /** What the paper says beside and under its content (keep it; no signature needed). */
  notes: string[];
}

/** The portal's web page of a workflow's certificates: `/certificate/<type>/<id>[/<number>]`. */
export function certificatePagePath(type: string, id?: string, number?: string): string {
  const tail = [id, number].filter((part) => part !== undefined).map(encodeURIComponent);
  return ['/certificate', encodeURIComponent(type), ...tail].join('/');
}
