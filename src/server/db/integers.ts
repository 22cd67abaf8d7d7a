/** The range of a PostgreSQL `integer` column: a request's number beyond it is a 4xx, not a 500. */
const MAX_INTEGER = 2_147_483_647;

/** A positive integer an `integer` column can hold (a version). */
export function isStoredPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_INTEGER;
}
