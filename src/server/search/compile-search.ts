import { sql, type RawBuilder, type SqlBool } from 'kysely';
import {
  isFilterCriterion,
  valueArity,
  criteriaFor,
  type FieldKind,
  type FilterCriterion,
} from '../../core/search/criteria';
import type { SearchOptions } from '../../core/search/protocol';
import { isNode } from '../../core/definitions/json';
import { ApiProblem, ERROR_CODES, type FieldProblem } from '../http/api-error';

/** A field a search may filter and sort on: its SQL expression and the kind of value it holds. */
export interface SearchField {
  sql: RawBuilder<unknown>;
  kind: FieldKind;
  /** A NOT NULL column: its sort needs no NULLS clause, so a plain btree serves it both ways. */
  notNull?: boolean;
  /** A text field's case-folded form as its indexes hold it (db/list-indexes.ts), for sorts and matches. */
  folded?: RawBuilder<string>;
}

/** One key of a compiled sort: the field, its direction and the expression sorted on. */
export interface SortKey {
  field: string;
  direction: 'asc' | 'desc';
  expression: RawBuilder<unknown>;
  kind: FieldKind;
  /** Nulls sort first ascending and last descending (as the smallest value). */
  nullable: boolean;
}

export interface CompiledSearch {
  where: RawBuilder<SqlBool>;
  /** The sort as ORDER BY terms, without a tie-break. */
  orderBy: RawBuilder<unknown>;
  /** The same sort, key by key (for a tie-break and keyset paging). */
  sort: SortKey[];
  /** A condition is on a folded (data) field: counting costs a row read each. */
  readsData: boolean;
  /**
   * The folded field a condition matches by its btree (starts with, equals): a count ordered by
   * it walks that index. Unordered, the planner counted "starts with tu" by reading the table
   * until enough rows matched, each row's name taken out of its JSON (18-30 ms for 101 at a
   * million, against 5-10 ms through the index).
   */
  countOrder?: RawBuilder<unknown>;
  options: SearchOptions | undefined;
}

/** Compiles a search body into parameterised SQL; anything unknown is a 400 naming its place. */
export function compileSearch(
  body: unknown,
  fields: Record<string, SearchField>,
  defaultSort: Array<{ field: string; direction: 'asc' | 'desc' }>,
): CompiledSearch {
  const request = asObject(body);
  const problems: FieldProblem[] = [];
  const conditions: RawBuilder<SqlBool>[] = [];
  const filter = request.filter ?? [];
  let readsData = false;
  let countOrder: RawBuilder<unknown> | undefined;
  if (!Array.isArray(filter)) {
    problems.push({ path: '/filter', rule: 'type', params: { type: 'array' } });
  } else {
    filter.forEach((condition, index) => {
      const compiled = compileCondition(condition, `/filter/${index}`, fields, problems);
      if (compiled) conditions.push(compiled);
      const name = (condition as { field?: unknown } | null)?.field;
      if (typeof name === 'string' && Object.hasOwn(fields, name) && fields[name]?.folded) {
        readsData = true;
        const criterion = (condition as { criterion?: unknown }).criterion;
        if (compiled && (criterion === 'startsWith' || criterion === 'equals'))
          countOrder ??= fields[name]!.folded;
      }
    });
  }
  const options = request.options as SearchOptions | undefined;
  if (options !== undefined && !isNode(options))
    problems.push({ path: '/options', rule: 'type', params: { type: 'object' } });
  const sort = options?.sort ?? rangeSort(filter, fields) ?? defaultSort;
  const keys: SortKey[] = [];
  if (!Array.isArray(sort)) {
    problems.push({ path: '/options/sort', rule: 'type', params: { type: 'array' } });
  } else {
    sort.forEach((order, index) => {
      const field = fields[order?.field];
      if (!field) {
        problems.push({
          path: `/options/sort/${index}/field`,
          rule: 'unknownField',
          params: { field: order?.field },
        });
        return;
      }
      keys.push({
        field: order.field,
        direction: order.direction === 'desc' ? 'desc' : 'asc',
        expression: field.folded ?? field.sql,
        kind: field.kind,
        nullable: !field.notNull && !field.folded,
      });
    });
  }
  if (problems.length > 0) {
    const code = problems.some((p) => p.rule === 'unknownCriterion')
      ? ERROR_CODES.unknownCriterion
      : problems.some((p) => p.rule === 'unknownField')
        ? ERROR_CODES.unknownField
        : ERROR_CODES.validationFailed;
    throw new ApiProblem(400, code, {}, problems);
  }
  return {
    where: conditions.length
      ? sql<SqlBool>`(${sql.join(conditions, sql` and `)})`
      : sql<SqlBool>`true`,
    orderBy: keys.length ? sql.join(keys.map((key) => orderTerm(key, key.expression))) : sql`1`,
    sort: keys,
    readsData,
    ...(countOrder ? { countOrder } : {}),
    options,
  };
}

const RANGES: readonly string[] = [
  'between',
  'greaterThan',
  'greaterThanOrEqual',
  'lessThan',
  'lessThanOrEqual',
];

/**
 * A search narrowed to a range of a date or a number, without a sort of its own, is in that
 * field's order, latest first: its index then serves both the range and the order. In the
 * default order (the last change) the planner walks the change-time index and tests each row,
 * which for a month of submissions five years back reads a quarter of the table.
 */
function rangeSort(
  filter: unknown,
  fields: Record<string, SearchField>,
): Array<{ field: string; direction: 'desc' }> | undefined {
  if (!Array.isArray(filter)) return undefined;
  for (const condition of filter as Array<{ field?: unknown; criterion?: unknown } | null>) {
    const name = condition?.field;
    if (typeof name !== 'string' || !Object.hasOwn(fields, name)) continue;
    const field = fields[name]!;
    if (field.kind === 'text' || field.kind === 'boolean' || field.folded) continue;
    if (typeof condition?.criterion === 'string' && RANGES.includes(condition.criterion))
      return [{ field: name, direction: 'desc' }];
  }
  return undefined;
}

/** `expression` ordered as `key` says; nulls as the smallest value, as NULLS FIRST btrees hold them. */
export function orderTerm(key: SortKey, expression: RawBuilder<unknown>): RawBuilder<unknown> {
  if (!key.nullable) return sql`${expression} ${sql.raw(key.direction)}`;
  return key.direction === 'desc'
    ? sql`${expression} desc nulls last`
    : sql`${expression} asc nulls first`;
}

/** A 400 naming the places in the request that fail. */
export function invalid(problems: FieldProblem[]): ApiProblem {
  return new ApiProblem(400, ERROR_CODES.validationFailed, {}, problems);
}

/** A request body as an object: none is an empty one, anything else but an object a 400. */
export function asObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (!isNode(body)) throw invalid([{ path: '/', rule: 'type', params: { type: 'object' } }]);
  return body;
}

/**
 * The texts of a body named by `limits`, trimmed: each missing or blank, not text, or longer than
 * its limit is a problem on its field, and any problem a 400 naming them all.
 */
export function requiredTexts<Name extends string>(
  given: Record<string, unknown>,
  limits: Record<Name, number>,
): Record<Name, string> {
  const problems: FieldProblem[] = [];
  const texts = {} as Record<Name, string>;
  for (const [name, limit] of Object.entries(limits) as Array<[Name, number]>) {
    const raw = given[name];
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (raw !== undefined && raw !== null && typeof raw !== 'string')
      problems.push({ path: `/${name}`, rule: 'type', params: { type: 'string' } });
    else if (value === '') problems.push({ path: `/${name}`, rule: 'required' });
    else if (value.length > limit)
      problems.push({ path: `/${name}`, rule: 'maxLength', params: { limit } });
    texts[name] = value;
  }
  if (problems.length) throw invalid(problems);
  return texts;
}

function compileCondition(
  raw: unknown,
  path: string,
  fields: Record<string, SearchField>,
  problems: FieldProblem[],
): RawBuilder<SqlBool> | undefined {
  if (typeof raw !== 'object' || raw === null) {
    problems.push({ path, rule: 'type', params: { type: 'object' } });
    return undefined;
  }
  const condition = raw as Record<string, unknown>;
  const name = condition.field;
  const field = typeof name === 'string' && Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (!field) {
    problems.push({ path: `${path}/field`, rule: 'unknownField', params: { field: name } });
    return undefined;
  }
  const criterion = condition.criterion;
  if (!isFilterCriterion(criterion)) {
    problems.push({ path: `${path}/criterion`, rule: 'unknownCriterion', params: { criterion } });
    return undefined;
  }
  if (!criteriaFor(field.kind).includes(criterion)) {
    problems.push({
      path: `${path}/criterion`,
      rule: 'criterionNotForField',
      params: { criterion, field: name },
    });
    return undefined;
  }
  const arity = valueArity(criterion);
  const value =
    arity >= 1 ? parseValue(condition.value, field.kind, `${path}/value`, problems) : null;
  const valueTo =
    arity === 2 ? parseValue(condition.valueTo, field.kind, `${path}/valueTo`, problems) : null;
  if ((arity >= 1 && value === undefined) || (arity === 2 && valueTo === undefined))
    return undefined;
  const text = String(condition.value);
  // Backslash, `%` and `_` of the user's text stand for themselves in a LIKE pattern.
  const literal = text.replace(/[\\%_]/g, '\\$&');
  if (field.folded && field.kind === 'text') {
    const folded = foldedCriterionSql(criterion, field.folded, field.sql, text, literal);
    if (folded) return folded;
  }
  return criterionSql(criterion, field, value as Bound, valueTo as Bound, literal);
}

type Bound = RawBuilder<unknown>;

function parseValue(
  value: unknown,
  kind: FieldKind,
  path: string,
  problems: FieldProblem[],
): Bound | undefined {
  const fail = () => {
    problems.push({ path, rule: 'filterValue', params: { kind } });
    return undefined;
  };
  if (value === undefined || value === null || value === '') return fail();
  switch (kind) {
    case 'text':
      return typeof value === 'string' || typeof value === 'number'
        ? bound(String(value), kind)
        : fail();
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
      return Number.isFinite(n) ? bound(n, kind) : fail();
    }
    case 'boolean':
      if (value === true || value === 'true') return sql`true`;
      if (value === false || value === 'false') return sql`false`;
      return fail();
    case 'datetime':
    case 'date': {
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return fail();
      if (kind === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return fail();
      return bound(value, kind);
    }
  }
}

const CASTS = { number: 'numeric', boolean: 'boolean', date: 'date', datetime: 'timestamptz' };

/** A value as SQL of a field's kind: bound, never spliced; a text as it is, others cast. */
export function bound(
  value: string | number | boolean | null,
  kind: FieldKind,
): RawBuilder<unknown> {
  if (kind === 'text' || value === null) return sql`${value}`;
  // A flag as a literal made of the value (never spliced text): PGlite binds a parameter it
  // reads as boolean only from a JS boolean, which a cursor's value cast here is not.
  if (kind === 'boolean') return sql.raw(value === true || value === 'true' ? 'true' : 'false');
  return sql`cast(${String(value)} as ${sql.raw(CASTS[kind])})`;
}

/** What a folded field's indexes serve (btree: starts with; trigram: ends with, contains). */
function foldedCriterionSql(
  criterion: FilterCriterion,
  folded: RawBuilder<string>,
  plain: RawBuilder<unknown>,
  text: string,
  literal: string,
): RawBuilder<SqlBool> | undefined {
  switch (criterion) {
    case 'equals':
      return sql<SqlBool>`(${folded} = lower(${text}) and ${plain} = ${text})`;
    case 'startsWith':
      // `^@` rather than LIKE: a range of the btree alone, never the trigram index.
      return sql<SqlBool>`${folded} ^@ lower(${text})`;
    case 'endsWith':
      return sql<SqlBool>`${folded} like ('%' || lower(${literal}))`;
    case 'contains':
      return sql<SqlBool>`${folded} like ('%' || lower(${literal}) || '%')`;
    default:
      return undefined;
  }
}

function criterionSql(
  criterion: FilterCriterion,
  field: SearchField,
  value: Bound,
  valueTo: Bound,
  literal: string,
): RawBuilder<SqlBool> {
  const column = field.sql;
  const isEmpty =
    field.kind === 'text'
      ? sql<SqlBool>`(${column} is null or ${column} = '')`
      : sql<SqlBool>`${column} is null`;
  switch (criterion) {
    case 'equals':
      return sql`${column} = ${value}`;
    case 'notEquals':
      return sql`${column} is distinct from ${value}`;
    case 'startsWith':
      return sql`${column} ilike ${`${literal}%`}`;
    case 'endsWith':
      return sql`${column} ilike ${`%${literal}`}`;
    case 'contains':
      return sql`${column} ilike ${`%${literal}%`}`;
    case 'between':
      return sql`${column} between ${value} and ${valueTo}`;
    case 'greaterThan':
      return sql`${column} > ${value}`;
    case 'greaterThanOrEqual':
      return sql`${column} >= ${value}`;
    case 'lessThan':
      return sql`${column} < ${value}`;
    case 'lessThanOrEqual':
      return sql`${column} <= ${value}`;
    case 'empty':
      return isEmpty;
    case 'notEmpty':
      return sql`not ${isEmpty}`;
    case 'none':
      return sql`true`;
  }
}
