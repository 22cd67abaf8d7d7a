/** The filter criteria of the search protocol, shared by the filter builder and the SQL compiler. */
export const FILTER_CRITERIA = [
  'equals',
  'notEquals',
  'startsWith',
  'endsWith',
  'between',
  'greaterThan',
  'greaterThanOrEqual',
  'lessThan',
  'lessThanOrEqual',
  'empty',
  'notEmpty',
  'contains',
  'none',
] as const;

export type FilterCriterion = (typeof FILTER_CRITERIA)[number];

/** The kinds of value a searchable field holds; they decide which criteria make sense. */
export type FieldKind = 'text' | 'number' | 'boolean' | 'datetime' | 'date';

const TEXT_ONLY: readonly FilterCriterion[] = ['startsWith', 'endsWith', 'contains'];
const ORDERED: readonly FilterCriterion[] = [
  'between',
  'greaterThan',
  'greaterThanOrEqual',
  'lessThan',
  'lessThanOrEqual',
];

export function isFilterCriterion(value: unknown): value is FilterCriterion {
  return typeof value === 'string' && (FILTER_CRITERIA as readonly string[]).includes(value);
}

/** Criteria offered for a field of the given kind (a boolean cannot "start with"). */
export function criteriaFor(kind: FieldKind): FilterCriterion[] {
  return FILTER_CRITERIA.filter((c) => {
    if (TEXT_ONLY.includes(c)) return kind === 'text';
    if (ORDERED.includes(c)) return kind !== 'boolean';
    return true;
  });
}

/** Criteria that take no value, one value, or two (a range). */
export function valueArity(criterion: FilterCriterion): 0 | 1 | 2 {
  if (criterion === 'empty' || criterion === 'notEmpty' || criterion === 'none') return 0;
  if (criterion === 'between') return 2;
  return 1;
}
