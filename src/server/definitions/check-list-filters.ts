import type { EntityDefinition, JsonSchema } from '../../core/definitions/types';
import {
  DOCUMENT_LIST_COLUMNS,
  LIST_ONLY_COLUMNS,
  type WorkflowDefinition,
  type WorkflowList,
} from '../../core/documents/workflow';
import { FLAGS_COLUMN } from '../../core/documents/case-work';
import { criteriaFor, valueArity, type FieldKind } from '../../core/search/criteria';
import { alternatives, nodesAt, schemaHasField } from './check-records';
import { reporter, said, workflowFile, type SaidProblem, type Report } from './problems';

/**
 * Lists' columns and `where` conditions: a column without pointer is one every document has; a
 * condition names a field, a criterion fitting its kind, and the values that criterion needs.
 */
export function checkListFilters(
  workflow: WorkflowDefinition,
  schemas: readonly EntityDefinition[],
  problems: SaidProblem[],
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
      // The flags' badges (check-case-work.ts checks the workflow declares flags).
      if (column.field === FLAGS_COLUMN) return;
      report(
        `/lists/${i}/columns/${j}/field`,
        said('columnNeedsPointer', {
          field: column.field,
          columns: DOCUMENT_LIST_COLUMNS.join(', '),
        }),
      );
    });
    checkBadge(workflow, list, report);
    // A name search searches text fields of the schema (their folded text is the key).
    (list.nameSearch?.pointers ?? []).forEach((pointer, j) => {
      const at = `/lists/${i}/nameSearch/pointers/${j}`;
      if (!schemaHasField(entity.schema, pointer))
        report(at, said('notFieldOfSchema', { pointer, schema: entity.id }));
      else if (fieldKind(entity.schema, pointer) !== 'text')
        report(at, said('nameSearchNotText', { pointer, kind: fieldKind(entity.schema, pointer) }));
    });
    (list.where ?? []).forEach((condition, j) => {
      const at = `/lists/${i}/where/${j}`;
      if (!schemaHasField(entity.schema, condition.pointer))
        return report(
          `${at}/pointer`,
          said('notFieldOfSchema', { pointer: condition.pointer, schema: entity.id }),
        );
      const kind = fieldKind(entity.schema, condition.pointer);
      if (!criteriaFor(kind).includes(condition.criterion))
        report(
          `${at}/criterion`,
          said('criterionNotForKind', { criterion: condition.criterion, kind }),
        );
      const arity = valueArity(condition.criterion);
      for (const [key, needed] of [
        ['value', arity >= 1],
        ['valueTo', arity === 2],
      ] as const) {
        if (needed !== (condition[key] !== undefined))
          report(
            `${at}/${key}`,
            said(needed ? 'criterionNeedsValue' : 'criterionTakesNoValue', {
              criterion: condition.criterion,
              value: key,
            }),
          );
      }
    });
  });
}

/** The document column a badge may count by the status of. */
const STATUS_COLUMN = 'status';

/**
 * A list's `badge` counts its documents by a field the list's search knows: a column every
 * document has, or one of its data columns (a column with a pointer), by its name; a status it
 * compares with is one of the machine. Another name would make the menu's count fail on every
 * page.
 */
function checkBadge(workflow: WorkflowDefinition, list: WorkflowList, report: Report): void {
  const badge = list.badge;
  if (!badge) return;
  const at = `/lists/${workflow.lists.indexOf(list)}/badge`;
  // The assignee's name is searched only where the list shows it (it is read from the accounts).
  const columns = list.columns
    .filter((column) => column.pointer || LIST_ONLY_COLUMNS.includes(column.field))
    .map((column) => column.field);
  const every = DOCUMENT_LIST_COLUMNS.filter((column) => !LIST_ONLY_COLUMNS.includes(column));
  if (![...every, ...columns].includes(badge.field))
    report(
      `${at}/field`,
      columns.length
        ? said('badgeFieldNotCountedOwn', {
            field: badge.field,
            columns: every.join(', '),
            own: columns.join(', '),
          })
        : said('badgeFieldNotCounted', { field: badge.field, columns: every.join(', ') }),
    );
  else if (
    badge.field === STATUS_COLUMN &&
    !Object.hasOwn(workflow.machine.states, String(badge.value))
  )
    report(`${at}/value`, said('noStatus', { status: String(badge.value) }));
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
