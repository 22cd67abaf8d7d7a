/** The audit search's answer (docs/audit.md, "Search"), as the server gives it and the portal reads it. */

/**
 * What a line records; the texts `audit.kinds.<kind>` word them. `read`: an officer's or
 * administrator's read of a document, an upload, a PDF or a page of search results; `change`: a
 * document's own history, kept where it is and read beside the trail's lines; the others, what
 * the service or a person did.
 */
export const AUDIT_LINE_KINDS = [
  'read',
  'change',
  'export',
  'sign-in',
  'session',
  'publish',
  'catalogue-change',
  'account',
  'retention',
] as const;
export type AuditLineKind = (typeof AUDIT_LINE_KINDS)[number];

/** One line, whichever table it was read from. */
export interface AuditLine {
  id: string;
  at: string;
  kind: AuditLineKind;
  /** A dotted key worded by the texts `audit.actions.<action>`. */
  action: string;
  actor: string;
  actorName: string;
  documentId: string | null;
  documentType: string | null;
  documentNumber: string | null;
  target: string | null;
  route: string | null;
  screen: string | null;
  addressClass: string | null;
  detail: Record<string, unknown> | null;
}

export interface AuditPage {
  items: AuditLine[];
  next?: string;
}

/** The search's filters, as the query string names them. */
export interface AuditFilters {
  person?: string;
  document?: string;
  kind?: AuditLineKind;
  from?: string;
  to?: string;
}

/** The query string of `filters` (empty ones left out). */
export function auditQuery(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const entries = Object.entries({ ...filters, ...extra }).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '',
  );
  return new URLSearchParams(entries.map(([key, value]) => [key, value.trim()])).toString();
}
