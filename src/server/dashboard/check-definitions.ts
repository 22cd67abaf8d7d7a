import type { EntityDefinition, JsonSchema } from '../../core/definitions/types';
import type { WorkflowDefinition } from '../../core/documents/workflow';
import type { DefinitionProblem } from '../definitions/load';

/**
 * Cross-checks of a workflow's dashboard declarations that the meta-schema cannot express: a
 * verification names statuses of the machine and fields of the schema, and needs numbers (the
 * public finds a document by its number) on the evisa backend (the one the endpoint serves).
 */
export function crossCheckDashboard(
  workflow: WorkflowDefinition,
  entity: EntityDefinition | undefined,
  problems: DefinitionProblem[],
): void {
  const verification = workflow.verification;
  if (!verification) return;
  const file = `workflows/${workflow.id}.json`;
  if (!workflow.numbering)
    problems.push({ file, pointer: '/verification', message: 'verification needs numbering' });
  if ((workflow.backend ?? 'evisa') !== 'evisa')
    problems.push({
      file,
      pointer: '/verification',
      message: 'verification is offered for evisa documents only',
    });
  verification.statuses.forEach((status, i) => {
    if (!Object.hasOwn(workflow.machine.states, status))
      problems.push({
        file,
        pointer: `/verification/statuses/${i}`,
        message: `no status "${status}" in the machine`,
      });
  });
  const pointers: Array<[string, string]> = [
    ...verification.secondFactors.map((p, i): [string, string] => [`secondFactors/${i}`, p]),
    ...(['validFrom', 'validUntil'] as const).flatMap((key): Array<[string, string]> => {
      const pointer = verification[key];
      return pointer ? [[key, pointer]] : [];
    }),
  ];
  if (!entity) return;
  for (const [place, pointer] of pointers) {
    if (!schemaAt(entity.schema, pointer))
      problems.push({
        file,
        pointer: `/verification/${place}`,
        message: `"${pointer}" is not a field of schema "${entity.id}"`,
      });
  }
}

/** The schema of the field a data pointer names, following properties and array items. */
function schemaAt(schema: JsonSchema, pointer: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const segment of pointer.split('/').slice(1)) {
    if (!node) return undefined;
    const properties = node.properties as Record<string, JsonSchema> | undefined;
    const items = node.items as JsonSchema | undefined;
    node =
      properties && Object.hasOwn(properties, segment)
        ? properties[segment]
        : /^\d+$/.test(segment) && items && typeof items === 'object' && !Array.isArray(items)
          ? items
          : undefined;
  }
  return node;
}
