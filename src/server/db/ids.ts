/**
 * A record id as the database keeps them (a `uuid` column). An id from a request is checked
 * against it before any query: PostgreSQL refuses to compare a uuid column with other text, which
 * would be our failure (500) for the caller's mistake (404).
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
