import type { EntityDefinition, JsonSchema } from '../../core/definitions/types';
import { DOCUMENT_LIST_COLUMNS, type WorkflowDefinition } from '../../core/documents/workflow';
import { criteriaFor, valueArity, type FieldKind } from '../../core/search/criteria';
import { schemaHasField } from './check-records';
import type { DefinitionProblem } from './problems';

/**
 * Cross-checks of the lists' columns and `where` conditions: a column without a pointer is one
 * every document has; each condition's pointer is a field of the workflow's schema, the
 * criterion suits the field's kind of value, and the condition has the values its criterion
 * needs. A misspelt pointer would otherwise match nothing (or, with `notEquals`, everything),
 * silently: the inactive accounts' list showing every active one.
 */
export function checkListFilters(
  workflow: WorkflowDefinition,
  schemas: readonly EntityDefinition[],
  problems: DefinitionProblem[],
): void {
  const file = `workflows/${workflow.id}.json`;
  const entity = schemas.find((s) => s.id === workflow.document);
  if (!entity) return; // the workflow's own check reports a missing schema
  workflow.lists.forEach((list, i) => {
    // A column without a pointer is one every document has (an "Assigned to": assigneeName);
    // another name would show an empty column.
    list.columns.forEach((column, j) => {
      if (column.pointer || (DOCUMENT_LIST_COLUMNS as readonly string[]).includes(column.field))
        return;
      problems.push({
        file,
        pointer: `/lists/${i}/columns/${j}/field`,
        message: `"${column.field}" is no column of every document (${DOCUMENT_LIST_COLUMNS.join(', ')}); a data field needs its pointer`,
      });
    });
    (list.where ?? []).forEach((condition, j) => {
      const at = `/lists/${i}/where/${j}`;
      if (!schemaHasField(entity.schema, condition.pointer)) {
        problems.push({
          file,
          pointer: `${at}/pointer`,
          message: `"${condition.pointer}" is not a field of schema "${entity.id}"`,
        });
        return;
      }
      const kind = fieldKind(entity.schema, condition.pointer);
      if (!criteriaFor(kind).includes(condition.criterion))
        problems.push({
          file,
          pointer: `${at}/criterion`,
          message: `criterion "${condition.criterion}" does not apply to a ${kind} field`,
        });
      const arity = valueArity(condition.criterion);
      for (const [key, needed] of [
        ['value', arity >= 1],
        ['valueTo', arity === 2],
      ] as const) {
        const given = condition[key] !== undefined;
        if (needed !== given)
          problems.push({
            file,
            pointer: `${at}/${key}`,
            message: needed
              ? `criterion "${condition.criterion}" needs "${key}"`
              : `criterion "${condition.criterion}" takes no "${key}"`,
          });
      }
    });
  });
}

/**
 * The kind of value the schema holds at a pointer (the first branch declaring a type decides):
 * numbers and flags compare as such, everything else (dates included, ISO text) as text.
 */
export function fieldKind(schema: JsonSchema, pointer: string): FieldKind {
  let nodes: JsonSchema[] = [schema];
  for (const segment of pointer.split('/').slice(1)) {
    nodes = nodes.flatMap(branches).flatMap((node) => {
      const property = (node.properties as Record<string, JsonSchema> | undefined)?.[segment];
      if (property) return [property];
      const items = node.items as JsonSchema | undefined;
      return /^\d+$/.test(segment) && items && typeof items === 'object' ? [items] : [];
    });
  }
  for (const node of nodes.flatMap(branches)) {
    const type = Array.isArray(node.type) ? node.type.find((t) => t !== 'null') : node.type;
    if (type === 'number' || type === 'integer') return 'number';
    if (type === 'boolean') return 'boolean';
    if (type === 'string') return 'text';
  }
  return 'text';
}

function branches(node: JsonSchema): JsonSchema[] {
  const found: JsonSchema[] = [node];
  for (const keyword of ['then', 'else']) {
    const branch = node[keyword];
    if (branch && typeof branch === 'object' && !Array.isArray(branch))
      found.push(...branches(branch as JsonSchema));
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const item of list as JsonSchema[]) found.push(...branches(item));
  }
  return found;
}
