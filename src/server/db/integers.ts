/**
 * The range of a PostgreSQL `integer` column (versions, counts). A number from a request
 * compared with such a column must fit, or the database refuses the query itself: checked
 * first, it is the caller's mistake (4xx), not the server's.
 */
export const MAX_INTEGER = 2_147_483_647;

/** A positive integer an `integer` column can hold (a version). */
export function isStoredPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_INTEGER;
}
