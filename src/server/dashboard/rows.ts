// What My Library and My Tasks share: the header's searchable fields, and who may call them.
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { DASHBOARD_ROLES } from '../../core/dashboard/types';
import { requireAnyRole } from '../auth/plugin';
import type { Principal } from '../auth/principal';
import type { SearchField } from '../search/compile-search';
import { HEADER_FIELDS, REFERENCE_FIELD } from '../documents/store/lists';
import type { CompiledWorkflow } from '../documents/workflows';

/** The caller of a dashboard endpoint: signed in (else 401), holding a dashboard role (else 403). */
export function dashboardCaller(request: FastifyRequest): Principal {
  return requireAnyRole(request, DASHBOARD_ROLES);
}

/** Fields a dashboard search may filter and sort on; `documentType` as a CASE over the workflows. */
export function documentFields(
  workflows: readonly CompiledWorkflow[],
  extra: Record<string, SearchField> = {},
): Record<string, SearchField> {
  const documentType = workflows.length
    ? sql`(case type ${sql.join(
        workflows.map((w) => sql`when ${w.definition.id} then ${w.definition.document}`),
        sql` `,
      )} else type end)`
    : sql`type`;
  return {
    workflow: { kind: 'text', sql: sql.ref('type'), notNull: true },
    documentType: { kind: 'text', sql: documentType },
    reference: REFERENCE_FIELD,
    number: HEADER_FIELDS.number!,
    status: HEADER_FIELDS.status!,
    submittedAt: HEADER_FIELDS.submittedAt!,
    createdAt: HEADER_FIELDS.createdAt!,
    updatedAt: HEADER_FIELDS.updatedAt!,
    ...extra,
  };
}
