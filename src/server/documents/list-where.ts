import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { JsonSchema } from '../../core/definitions/types';
import type { WorkflowList } from '../../core/documents/workflow';
import { fieldKind } from '../definitions/check-list-filters';
import { compileSearch, type SearchField } from '../search/compile-search';
import { DELETED, dataText, pointerPath } from './store/lists';

/** The documents of `type` a list shows by its statuses (else all but deleted) and its `where`. */
export function listScope(
  type: string,
  list: WorkflowList,
  schema: JsonSchema,
): RawBuilder<SqlBool> {
  const statuses = list.status?.length
    ? sql`status in (${sql.join(list.status)})`
    : sql`status <> ${DELETED}`;
  return sql<SqlBool>`(type = ${type} and ${statuses} and ${listWhere(list, schema)})`;
}

/** A list's `where` conditions as SQL through the search compiler (the loader checked them). */
export function listWhere(list: WorkflowList, schema: JsonSchema): RawBuilder<SqlBool> {
  const where = list.where ?? [];
  if (where.length === 0) return sql<SqlBool>`true`;
  const fields: Record<string, SearchField> = {};
  const filter = where.map(({ pointer, ...condition }, i) => {
    const field = `where${i}`;
    fields[field] = dataField(pointer, fieldKind(schema, pointer));
    return { ...condition, field };
  });
  return compileSearch({ filter }, fields, []).where;
}

/** A data value as its schema kind; numbers and flags read only where jsonb_typeof agrees. */
function dataField(pointer: string, kind: SearchField['kind']): SearchField {
  const text = dataText(pointer);
  if (kind !== 'number' && kind !== 'boolean') return { kind: 'text', sql: text };
  const path = sql`(data #> ${pointerPath(pointer)})`;
  const json = kind === 'number' ? 'number' : 'boolean';
  const type = kind === 'number' ? sql`numeric` : sql`boolean`;
  return {
    kind,
    sql: sql`(case when jsonb_typeof(${path}) = ${json} then cast(${text} as ${type}) end)`,
  };
}
