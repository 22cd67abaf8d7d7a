import type { FastifyInstance } from 'fastify';
import { requireAnyRole } from '../auth/plugin';
import { perDefinition, WORKLOAD } from '../api-contract/common';
import type { DocumentService } from '../documents/service';

/**
 * The team view of a workflow declaring `workload` (docs/workflows.md, "Assignment and
 * workload"): `GET /{backend}/{type}/workload`, for those who may take its assigning action.
 */
export async function workloadPlugin(
  app: FastifyInstance,
  options: { documents: DocumentService },
) {
  const { documents } = options;
  app.get<{ Params: { type: string } }>(
    '/:type/workload',
    perDefinition(['type'], WORKLOAD),
    async (request) => {
      const { type } = request.params;
      return documents.workload(type, requireAnyRole(request, documents.workflow(type).anyRole));
    },
  );
}
