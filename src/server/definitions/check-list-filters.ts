import type { EntityDefinition, JsonSchema } from '../../core/definitions/types';
import { DOCUMENT_LIST_COLUMNS, type WorkflowDefinition } from '../../core/documents/workflow';
import { criteriaFor, valueArity, type FieldKind } from '../../core/search/criteria';
import { alternatives, nodesAt, schemaHasField } from './check-records';
import { reporter, workflowFile, type DefinitionProblem } from './problems';

/**
 * Lists' columns and `where` conditions: a column without pointer is one every document has; a
 * condition names a field, a criterion fitting its kind, and the values that criterion needs.
 */
export function checkListFilters(
  workflow: WorkflowDefinition,
  schemas: readonly EntityDefinition[],
  problems: DefinitionProblem[],
): void {
  const report = reporter(problems, workflowFile(workflow.id));
  const entity = schemas.find((s) => s.id === workflow.document);
  if (!entity) return; // the workflow's own check reports a missing schema
  workflow.lists.forEach((list, i) => {
    // A column without a pointer is one every document has (an "Assigned to": assigneeName);
    // another name would show an empty column.
    list.columns.forEach((column, j) => {
      if (column.pointer || (DOCUMENT_LIST_COLUMNS as readonly string[]).includes(column.field))
        return;
      report(
        `/lists/${i}/columns/${j}/field`,
        `"${column.field}" is no column of every document (${DOCUMENT_LIST_COLUMNS.join(', ')}); a data field needs its pointer`,
      );
    });
    (list.where ?? []).forEach((condition, j) => {
      const at = `/lists/${i}/where/${j}`;
      if (!schemaHasField(entity.schema, condition.pointer))
        return report(
          `${at}/pointer`,
          `"${condition.pointer}" is not a field of schema "${entity.id}"`,
        );
      const kind = fieldKind(entity.schema, condition.pointer);
      if (!criteriaFor(kind).includes(condition.criterion))
        report(
          `${at}/criterion`,
          `criterion "${condition.criterion}" does not apply to a ${kind} field`,
        );
      const arity = valueArity(condition.criterion);
      for (const [key, needed] of [
        ['value', arity >= 1],
        ['valueTo', arity === 2],
      ] as const) {
        if (needed !== (condition[key] !== undefined))
          report(
            `${at}/${key}`,
            `criterion "${condition.criterion}" ${needed ? 'needs' : 'takes no'} "${key}"`,
          );
      }
    });
  });
}

/**
 * The kind of value the schema holds at a pointer (the first branch declaring a type decides):
 * numbers and flags compare as such, everything else (dates included, ISO text) as text.
 */
export function fieldKind(schema: JsonSchema, pointer: string): FieldKind {
  for (const node of nodesAt(schema, pointer).flatMap(alternatives)) {
    const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type;
    if (type === 'number' || type === 'integer') return 'number';
    if (type === 'boolean') return 'boolean';
    if (type === 'string') return 'text';
  }
  return 'text';
}
