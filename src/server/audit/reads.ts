import type { FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import { UUID } from '../db/ids';
import { auditedDocuments } from '../documents/store/audit-lines';
import { findByKey } from '../documents/store/lookups';
import type { Queryable } from '../documents/store/rows';
import { requestOrigin, type AuditLog } from './log';

/** The document a read was of: whose it is decides whether the read is recorded. */
export interface ReadDocument {
  id: string;
  type: string;
  owner: string;
}

/** What was read: the line's action, and what else it names (an upload's id, a page's rows). */
export interface ReadWhat {
  action: 'document.read' | 'upload.read' | 'pdf.read' | 'certificate.read' | 'search.page';
  target?: string;
  detail?: Record<string, unknown>;
}

/**
 * Records a read of personal data by anyone but its holder (docs/audit.md, "What is recorded"):
 * an officer, an administrator, a delegate or a payer. A holder's own reads are never recorded.
 * Queued (AuditLog.record): the read never waits for its line.
 */
export function recordRead(
  audit: AuditLog | undefined,
  request: FastifyRequest,
  principal: Principal,
  document: ReadDocument | undefined,
  what: ReadWhat,
): void {
  if (!audit || document?.owner === principal.subject) return;
  audit.record({
    ...requestOrigin(request, principal),
    kind: 'read',
    action: what.action,
    ...(document ? { documentId: document.id, documentType: document.type } : {}),
    ...(what.target ? { target: what.target } : {}),
    ...(what.detail ? { detail: what.detail } : {}),
  });
}

/** The rows of a search page that are others' (the caller's own rows are not recorded). */
export function othersRows(
  principal: Principal,
  rows: readonly { id: string; owner: string }[],
): string[] {
  return rows.filter((row) => row.owner !== principal.subject).map((row) => row.id);
}

/**
 * The document a route names by id or by its workflow's key (an account's login), for the routes
 * whose answer does not say whose it is (versions, history, certificates).
 */
export async function namedDocument(
  db: Queryable,
  workflow: Pick<WorkflowDefinition, 'id' | 'key'>,
  reference: string,
): Promise<ReadDocument | undefined> {
  if (UUID.test(reference))
    return (await auditedDocuments(db, [reference])).get(reference.toLowerCase());
  if (!workflow.key || reference.length > 200) return undefined;
  const row = await findByKey(db, workflow.id, workflow.key.pointer, reference, {
    includeDeleted: true,
  });
  return row && { id: row.id, type: row.type, owner: row.owner };
}
