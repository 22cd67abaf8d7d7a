import type { DefinitionBundle } from '../../core/definitions/types';
import { schemaHasField } from './check-records';
import { problemOf, said, workflowFile, type SaidProblem } from './problems';

/**
 * A workflow's `dataMoves` as definitions: the fields a move writes are the schema's (declared
 * with `x-names`, checked by the loader); the fields it empties (`rename`, `remove`) must be ones
 * the schema no longer has, or a publish would take away data the forms still show.
 */
export function checkDataMoves(bundle: DefinitionBundle): SaidProblem[] {
  const problems: SaidProblem[] = [];
  for (const workflow of bundle.workflows) {
    const entity = bundle.schemas.find((candidate) => candidate.id === workflow.document);
    if (!entity) continue;
    (workflow.dataMoves ?? []).forEach((move, index) => {
      const [key, emptied] =
        'rename' in move
          ? ['rename', move.rename]
          : 'remove' in move
            ? ['remove', move.remove]
            : [];
      if (key === undefined || emptied === undefined || !schemaHasField(entity.schema, emptied))
        return;
      problems.push(
        problemOf(
          workflowFile(workflow.id),
          `/dataMoves/${index}/${key}`,
          said('moveEmptiesSchemaField', { field: emptied }),
        ),
      );
    });
  }
  return problems;
}
