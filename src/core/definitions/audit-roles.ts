import type { PortalRoute } from './routes';

/** Who may search the audit trail (docs/audit.md): read it, export it, see a document's lines. */
export const AUDIT_READ_ROLE = 'audit-read';
export const AUDIT_ROLES: readonly string[] = [AUDIT_READ_ROLE];

/** The audit screen's address. */
export const AUDIT_PATH = '/audit';

/** The audit screen, for the router and `npm run routes`. */
export function auditRoutes(): PortalRoute[] {
  return [{ path: AUDIT_PATH, roles: [...AUDIT_ROLES], public: false }];
}
