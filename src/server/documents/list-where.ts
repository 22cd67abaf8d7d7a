import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { JsonSchema } from '../../core/definitions/types';
import type { WorkflowList } from '../../core/documents/workflow';
import { fieldKind } from '../definitions/check-list-filters';
import { compileSearch, type SearchField } from '../search/compile-search';
import { dataText, pointerPath } from './store/lists';

/**
 * A list's `where` conditions as SQL, through the search protocol's compiler (the same
 * criteria, bound values), on the data pointers they name: the loader checked them, so a
 * problem here is a definitions bug and surfaces as the compiler's 400. No conditions: true.
 */
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

/**
 * A data value as the kind the schema declares. A number or a flag is read only where the data
 * holds one (jsonb_typeof), so a stray text never breaks the cast of the whole query.
 */
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
